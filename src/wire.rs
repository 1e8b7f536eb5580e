//! The byte encoding of a world snapshot: every value little-endian, field by field, with no
//! padding, so that the bytes are the same on every platform. A [`Wire`] type writes itself
//! into an [`Out`] and reads itself back from an [`In`]; reading checks everything it can
//! check locally (a `bool` is 0 or 1, an enum tag is known, a length fits the bytes left)
//! and leaves the relations between stores to the world's own check after the whole
//! snapshot is read.

use alloc::vec::Vec;

/// Why bytes could not be read back (see `SnapshotError`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WireError {
    /// The bytes end before the value does.
    Truncated,
    /// A value no encoder writes (a `bool` other than 0 or 1, an unknown enum tag, a length
    /// beyond the bytes left).
    Invalid,
    /// An array could not be allocated.
    OutOfMemory,
}

/// Where values are written: a caller's buffer and the number of bytes written so far. A
/// write past the buffer's end is counted but not stored, so one pass over a world gives
/// the size it needs whatever the buffer.
pub(crate) struct Out<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> Out<'a> {
    pub(crate) fn new(buf: &'a mut [u8]) -> Out<'a> {
        Out { buf, len: 0 }
    }

    /// Bytes written (or that would have been, past the buffer's end).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether everything written fitted in the buffer.
    pub(crate) fn fits(&self) -> bool {
        self.len <= self.buf.len()
    }

    #[inline]
    pub(crate) fn bytes<const N: usize>(&mut self, b: [u8; N]) {
        let end = self.len + N;
        if let Some(dst) = self.buf.get_mut(self.len..end) {
            dst.copy_from_slice(&b);
        }
        self.len = end;
    }
}

/// Where values are read from: the snapshot's bytes and the read position.
pub(crate) struct In<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> In<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> In<'a> {
        In { bytes, pos: 0 }
    }

    /// Bytes not read yet.
    pub(crate) fn left(&self) -> usize {
        self.bytes.len() - self.pos
    }

    #[inline]
    pub(crate) fn bytes<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let end = self.pos.checked_add(N).ok_or(WireError::Truncated)?;
        let src = self.bytes.get(self.pos..end).ok_or(WireError::Truncated)?;
        self.pos = end;
        let mut b = [0; N];
        b.copy_from_slice(src);
        Ok(b)
    }
}

/// A value with a byte encoding. `MIN` is the fewest bytes any value of the type takes, so
/// that a length read from the bytes can be checked against what is left before anything
/// is allocated for it.
pub(crate) trait Wire: Sized {
    const MIN: usize;
    fn put(&self, o: &mut Out);
    fn take(i: &mut In) -> Result<Self, WireError>;
    /// Reads a value into `self` (a `Vec` reuses its memory).
    #[inline]
    fn take_into(&mut self, i: &mut In) -> Result<(), WireError> {
        *self = Self::take(i)?;
        Ok(())
    }
}

macro_rules! wire_int {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            const MIN: usize = core::mem::size_of::<$t>();
            #[inline]
            fn put(&self, o: &mut Out) {
                o.bytes(self.to_le_bytes());
            }
            #[inline]
            fn take(i: &mut In) -> Result<Self, WireError> {
                Ok(<$t>::from_le_bytes(i.bytes()?))
            }
        }
    )*};
}
wire_int!(u8, u16, u32, u64, i32);

impl Wire for f32 {
    const MIN: usize = 4;
    #[inline]
    fn put(&self, o: &mut Out) {
        self.to_bits().put(o);
    }
    #[inline]
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok(f32::from_bits(u32::take(i)?))
    }
}

impl Wire for bool {
    const MIN: usize = 1;
    #[inline]
    fn put(&self, o: &mut Out) {
        u8::from(*self).put(o);
    }
    #[inline]
    fn take(i: &mut In) -> Result<Self, WireError> {
        match u8::take(i)? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(WireError::Invalid),
        }
    }
}

/// A count or index, written as 32 bits (no store of a world holds more than `u32::MAX`).
impl Wire for usize {
    const MIN: usize = 4;
    #[inline]
    fn put(&self, o: &mut Out) {
        u32::try_from(*self).unwrap_or(u32::MAX).put(o);
    }
    #[inline]
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok(u32::take(i)? as usize)
    }
}

impl<T: Wire + Default + Copy, const N: usize> Wire for [T; N] {
    const MIN: usize = N * T::MIN;
    #[inline]
    fn put(&self, o: &mut Out) {
        for v in self {
            v.put(o);
        }
    }
    #[inline]
    fn take(i: &mut In) -> Result<Self, WireError> {
        let mut a = [T::default(); N];
        for v in &mut a {
            *v = T::take(i)?;
        }
        Ok(a)
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    const MIN: usize = A::MIN + B::MIN;
    fn put(&self, o: &mut Out) {
        self.0.put(o);
        self.1.put(o);
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok((A::take(i)?, B::take(i)?))
    }
}

impl<A: Wire, B: Wire, C: Wire, D: Wire> Wire for (A, B, C, D) {
    const MIN: usize = A::MIN + B::MIN + C::MIN + D::MIN;
    fn put(&self, o: &mut Out) {
        self.0.put(o);
        self.1.put(o);
        self.2.put(o);
        self.3.put(o);
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        Ok((A::take(i)?, B::take(i)?, C::take(i)?, D::take(i)?))
    }
}

impl<T: Wire> Wire for Option<T> {
    const MIN: usize = 1;
    fn put(&self, o: &mut Out) {
        match self {
            None => 0u8.put(o),
            Some(v) => {
                1u8.put(o);
                v.put(o);
            }
        }
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        match u8::take(i)? {
            0 => Ok(None),
            1 => Ok(Some(T::take(i)?)),
            _ => Err(WireError::Invalid),
        }
    }
}

impl<T: Wire> Wire for Vec<T> {
    const MIN: usize = 4;
    fn put(&self, o: &mut Out) {
        self.len().put(o);
        for v in self {
            v.put(o);
        }
    }
    fn take(i: &mut In) -> Result<Self, WireError> {
        let mut v = Vec::new();
        take_into(&mut v, i)?;
        Ok(v)
    }
    fn take_into(&mut self, i: &mut In) -> Result<(), WireError> {
        take_into(self, i)
    }
}

/// Reads a `Vec<T>` into `v`, reusing its memory. The length is checked against the bytes
/// left (`T::MIN` each) before room is made, so hostile bytes cannot ask for more memory
/// than their own size justifies.
pub(crate) fn take_into<T: Wire>(v: &mut Vec<T>, i: &mut In) -> Result<(), WireError> {
    take_into_at_most(v, i, usize::MAX)
}

/// [`take_into`] for a store that may not hold more than `max` entries (more is
/// [`WireError::Invalid`]).
pub(crate) fn take_into_at_most<T: Wire>(v: &mut Vec<T>, i: &mut In, max: usize) -> Result<(), WireError> {
    let n = usize::take(i)?;
    if n > max || n > i.left() / T::MIN.max(1) {
        return Err(WireError::Invalid);
    }
    v.clear();
    v.try_reserve(n).map_err(|_| WireError::OutOfMemory)?;
    for _ in 0..n {
        v.push(T::take(i)?);
    }
    Ok(())
}

/// `Wire` for a struct, field by field in the order given (every field must be listed:
/// the struct literal does not compile otherwise). `MIN` is the sum of the fields' `MIN`s,
/// each field's type named after a colon.
macro_rules! wire_struct {
    ($t:ty { $($f:ident : $ft:ty),* $(,)? }) => {
        impl $crate::wire::Wire for $t {
            const MIN: usize = 0 $(+ <$ft as $crate::wire::Wire>::MIN)*;
            #[inline]
            fn put(&self, o: &mut $crate::wire::Out) {
                $(<$ft as $crate::wire::Wire>::put(&self.$f, o);)*
            }
            #[inline]
            fn take(i: &mut $crate::wire::In) -> Result<Self, $crate::wire::WireError> {
                Ok(Self { $($f: <$ft as $crate::wire::Wire>::take(i)?,)* })
            }
        }
    };
}
pub(crate) use wire_struct;

use crate::math::{Aabb, Rot, Transform, Vec2};

wire_struct!(Vec2 { x: f32, y: f32 });
wire_struct!(Rot { c: f32, s: f32 });
wire_struct!(Transform { p: Vec2, q: Rot });
wire_struct!(Aabb { min: Vec2, max: Vec2 });

/// The snapshot's checksum: a 64-bit multiply-rotate hash over the bytes, eight at a time
/// (a guard against truncation and corruption, not against a hostile writer).
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0x243F_6A88_85A3_08D3 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    for &b in chunks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(K).rotate_left(29);
    }
    h ^ (h >> 32)
}
