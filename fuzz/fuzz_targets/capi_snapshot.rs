//! World snapshots through the C ABI: a small world built and stepped from the first bytes
//! (boxes, circles and capsules at fuzzed places and speeds, a static ground, some steps),
//! snapshotted with `c2d_world_snapshot_size` / `c2d_world_snapshot` (a buffer too short
//! must be refused), then edited by the rest of the bytes (bytes set at offsets, runs
//! overwritten, truncation), the checksum recomputed or not, and restored with
//! `c2d_world_restore` into a live world and `c2d_world_create_from_snapshot`; raw bytes are
//! restored too. Nothing may panic; a refused restore must leave the target world as it was
//! (its snapshot bytes unchanged); an accepted one must give a world that passes
//! `c2d_world_validate`, steps, validates again, snapshots and clones (`c2d_world_clone`,
//! whose snapshot must equal its original's).
#![no_main]
use collide2d::capi::*;
use collide2d::*;
use libfuzzer_sys::fuzz_target;

/// The snapshot checksum as its format documents it (the last eight header bytes): a 64-bit
/// multiply-rotate hash over little-endian words, then the remaining bytes.
fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0x243F_6A88_85A3_08D3 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h ^ u64::from_le_bytes(c.try_into().unwrap()))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    for &b in chunks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(K).rotate_left(29);
    }
    h ^ (h >> 32)
}

fn reseal(bytes: &mut [u8]) {
    if bytes.len() >= SNAPSHOT_HEADER_BYTES {
        let sum = checksum(&bytes[SNAPSHOT_HEADER_BYTES..]);
        bytes[36..44].copy_from_slice(&sum.to_le_bytes());
        let len = bytes.len() as u64;
        bytes[20..28].copy_from_slice(&len.to_le_bytes());
    }
}

/// The world's snapshot bytes.
fn snapshot(w: WorldId) -> Vec<u8> {
    let mut n = 0usize;
    // SAFETY: a live world and a writable size.
    assert_eq!(unsafe { c2d_world_snapshot_size(w, &mut n) }, Status::Ok);
    let mut bytes = vec![0u8; n];
    let mut written = 0usize;
    if n > 0 {
        // SAFETY: a buffer of n - 1 bytes.
        let s = unsafe { c2d_world_snapshot(w, bytes.as_mut_ptr(), n - 1, &mut written) };
        assert_eq!(s, Status::BufferTooSmall);
    }
    // SAFETY: a buffer of n bytes.
    assert_eq!(
        unsafe { c2d_world_snapshot(w, bytes.as_mut_ptr(), n, &mut written) },
        Status::Ok
    );
    assert_eq!(written, n);
    bytes
}

/// Steps a world that restored fuzzed bytes and checks it as the module docs say.
fn exercise(w: WorldId) {
    // SAFETY: a live world.
    unsafe {
        assert_eq!(
            c2d_world_validate(w),
            Status::Ok,
            "restored world fails validation"
        );
        for _ in 0..3 {
            let _ = c2d_world_step(w, 1.0 / 60.0, 4);
            assert_eq!(
                c2d_world_validate(w),
                Status::Ok,
                "stepped restored world fails validation"
            );
        }
        let mut copy = WorldId::default();
        match c2d_world_clone(w, &mut copy) {
            Status::Ok => {
                assert_eq!(snapshot(copy), snapshot(w), "a clone's snapshot differs");
                assert_eq!(c2d_world_destroy(copy), Status::Ok);
            }
            s => assert!(matches!(s, Status::OutOfMemory | Status::TooManyWorlds), "{s:?}"),
        }
    }
}

fn f32_at(data: &[u8], k: usize) -> f32 {
    let b = [0, 1, 2, 3].map(|i| data.get(k + i).copied().unwrap_or(0));
    let x = f32::from_le_bytes(b);
    if x.is_finite() {
        x.clamp(-50.0, 50.0)
    } else {
        0.0
    }
}

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    // Raw bytes as a snapshot: never a panic, never a world.
    let mut raw = WorldId::default();
    // SAFETY: readable bytes and a writable id.
    let s = unsafe { c2d_world_create_from_snapshot(data.as_ptr(), data.len(), &mut raw) };
    if s == Status::Ok {
        exercise(raw);
        // SAFETY: the world just made.
        unsafe { c2d_world_destroy(raw) };
    }

    // A world from the first bytes.
    let mut w = WorldId::default();
    // SAFETY: a writable id.
    assert_eq!(unsafe { c2d_world_create(core::ptr::null(), &mut w) }, Status::Ok);
    let bodies = (data[0] % 12) as usize;
    let mut ground = Shape::rect(8.0, 0.5);
    let xf0 = Transform::from_translation(Vec2::new(0.0, -0.5));
    let mut def = BodyDef::new(BodyKind::Static, xf0, ground);
    let mut id = BodyId::default();
    // SAFETY: live world, readable definition, writable id.
    unsafe { c2d_world_add_body(w, &def, &mut id) };
    let mut k = 1;
    for b in 0..bodies {
        let p = Vec2::new(
            f32_at(data, k) * 0.2,
            0.5 + f32_at(data, k + 4).abs() * 0.1 + b as f32,
        );
        let v = Vec2::new(f32_at(data, k + 8), f32_at(data, k + 12));
        let kind = data.get(k + 16).copied().unwrap_or(0);
        ground = match kind % 3 {
            0 => Shape::rect(0.3, 0.2),
            1 => Shape::circle(0.25),
            _ => Shape::Capsule(Capsule::new(Vec2::new(-0.2, 0.0), Vec2::new(0.2, 0.0), 0.1).unwrap()),
        };
        def = BodyDef::new(BodyKind::Dynamic, Transform::new(p, f32_at(data, k)), ground);
        def.linear_velocity = v;
        def.bullet = kind & 8 != 0;
        def.sensor = kind & 16 != 0 && kind % 3 != 2;
        // SAFETY: as above.
        unsafe { c2d_world_add_body(w, &def, &mut id) };
        k += 17;
    }
    let steps = data.get(k).copied().unwrap_or(0) % 40;
    for _ in 0..steps {
        // SAFETY: a live world.
        unsafe { c2d_world_step(w, 1.0 / 60.0, 4) };
    }
    k += 1;
    let good = snapshot(w);
    // SAFETY: the world and its own bytes.
    assert_eq!(
        unsafe { c2d_world_restore(w, good.as_ptr(), good.len()) },
        Status::Ok
    );
    assert_eq!(snapshot(w), good, "restoring a world's own snapshot changed it");

    // The rest of the bytes edit the snapshot: (offset, value) pairs, then a mode byte.
    let mut bad = good.clone();
    let edits = &data[k.min(data.len())..];
    let mode = edits.first().copied().unwrap_or(0);
    for e in edits.get(1..).unwrap_or(&[]).chunks(3) {
        if e.len() < 3 || bad.is_empty() {
            break;
        }
        let at = u16::from_le_bytes([e[0], e[1]]) as usize % bad.len();
        match mode % 3 {
            0 => bad[at] = e[2],
            1 => bad[at] ^= e[2],
            _ => {
                let end = (at + 4).min(bad.len());
                let v = u32::from(e[2]).wrapping_mul(0x0101_0101).to_le_bytes();
                bad[at..end].copy_from_slice(&v[..end - at]);
            }
        }
    }
    if mode & 4 != 0 {
        let cut = bad.len().saturating_sub(usize::from(mode >> 3));
        bad.truncate(cut);
    }
    if mode & 128 == 0 {
        reseal(&mut bad);
    }
    // SAFETY: readable bytes of the given length.
    match unsafe { c2d_world_restore(w, bad.as_ptr(), bad.len()) } {
        Status::Ok => exercise(w),
        s => {
            assert!(
                matches!(
                    s,
                    Status::NotASnapshot
                        | Status::SnapshotVersion
                        | Status::SnapshotTruncated
                        | Status::SnapshotChecksum
                        | Status::SnapshotCorrupt
                        | Status::OutOfMemory
                ),
                "{s:?}"
            );
            assert_eq!(snapshot(w), good, "a refused restore changed the world");
        }
    }
    let mut other = WorldId::default();
    // SAFETY: readable bytes and a writable id.
    if unsafe { c2d_world_create_from_snapshot(bad.as_ptr(), bad.len(), &mut other) } == Status::Ok {
        exercise(other);
        // SAFETY: the world just made.
        unsafe { c2d_world_destroy(other) };
    }
    // SAFETY: the target's world.
    unsafe { c2d_world_destroy(w) };
});
