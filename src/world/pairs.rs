//! The world's pair set: an open-addressing hash table from a body pair to its contact.
//!
//! Keys are `(a << 32) | b` with `a < b` slot indices, so `u64::MAX` never occurs and marks an
//! empty bucket. Linear probing with a load factor of at most one half; removal shifts the
//! following entries of the probe run back (no tombstones), so lookups never slow down as
//! pairs come and go. Insert, find and remove are O(1) expected; nothing is ever sorted or
//! moved in bulk (the table doubles when half full, amortised O(1)). Box2D v3 keeps its pair
//! set the same way (`table.c`).

use alloc::vec::Vec;

const EMPTY: u64 = u64::MAX;

/// `(a, b)` with `a < b` as one key.
#[inline]
pub(crate) fn pair_key(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::from(lo) << 32) | u64::from(hi)
}

#[derive(Clone, Debug, Default)]
pub(crate) struct PairTable {
    keys: Vec<u64>,
    values: Vec<u32>,
    len: usize,
}

impl PairTable {
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Fibonacci hashing: the high bits of the product are well mixed.
        let bits = self.keys.len().trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// Number of pairs stored.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Walks `key`'s probe run: `Ok(bucket)` holding it, or `Err(bucket)` for the empty one
    /// that ends the run. The table must have buckets (it is never full: load ≤ ½).
    #[inline]
    fn probe(&self, key: u64) -> Result<usize, usize> {
        let mask = self.keys.len() - 1;
        let mut i = self.bucket(key);
        loop {
            match self.keys[i] {
                k if k == key => return Ok(i),
                EMPTY => return Err(i),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The value stored for `key`.
    pub(crate) fn get(&self, key: u64) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        self.probe(key).ok().map(|i| self.values[i])
    }

    /// Stores `value` for `key` (replacing any previous value).
    pub(crate) fn insert(&mut self, key: u64, value: u32) {
        debug_assert_ne!(key, EMPTY);
        if 2 * (self.len + 1) > self.keys.len() {
            self.grow();
        }
        match self.probe(key) {
            Ok(i) => self.values[i] = value,
            Err(i) => {
                self.keys[i] = key;
                self.values[i] = value;
                self.len += 1;
            }
        }
    }

    /// Removes `key`; returns its value.
    pub(crate) fn remove(&mut self, key: u64) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let i = self.probe(key).ok()?;
        let mask = self.keys.len() - 1;
        let value = self.values[i];
        // Backward-shift deletion: move later members of the probe run into the hole when
        // their home bucket does not lie cyclically in (hole, j].
        let mut hole = i;
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let k = self.keys[j];
            if k == EMPTY {
                break;
            }
            let home = self.bucket(k);
            let stays = if hole <= j {
                hole < home && home <= j
            } else {
                hole < home || home <= j
            };
            if !stays {
                self.keys[hole] = k;
                self.values[hole] = self.values[j];
                hole = j;
            }
        }
        self.keys[hole] = EMPTY;
        self.len -= 1;
        Some(value)
    }

    fn grow(&mut self) {
        let capacity = (2 * self.keys.len()).max(16);
        let keys = core::mem::replace(&mut self.keys, alloc::vec![EMPTY; capacity]);
        let values = core::mem::replace(&mut self.values, alloc::vec![0; capacity]);
        self.rehash_from(keys, values);
    }

    fn rehash_from(&mut self, keys: Vec<u64>, values: Vec<u32>) {
        self.len = 0;
        for (k, v) in keys.into_iter().zip(values) {
            if k != EMPTY {
                self.insert(k, v);
            }
        }
    }

    /// Makes room for `additional` more keys without growing on insert; an allocation
    /// failure leaves the table as it was.
    pub(crate) fn try_reserve(
        &mut self,
        additional: usize,
    ) -> Result<(), alloc::collections::TryReserveError> {
        let need = 2 * (self.len + additional);
        if need <= self.keys.len() {
            return Ok(());
        }
        let capacity = need.next_power_of_two().max(16);
        let mut keys = Vec::new();
        keys.try_reserve_exact(capacity)?;
        let mut values = Vec::new();
        values.try_reserve_exact(capacity)?;
        keys.resize(capacity, EMPTY);
        values.resize(capacity, 0);
        let old_keys = core::mem::replace(&mut self.keys, keys);
        let old_values = core::mem::replace(&mut self.values, values);
        self.rehash_from(old_keys, old_values);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use alloc::collections::BTreeMap;

    /// Random inserts and removes against a `BTreeMap`, with keys from a small range so that
    /// probe runs collide and wrap around the table's end.
    #[test]
    fn table_matches_a_btree_map_under_churn() {
        let mut rng = Rng(7);
        let mut t = PairTable::default();
        let mut m = BTreeMap::new();
        for step in 0..200_000u32 {
            let a = (rng.next() % 300) as u32;
            let b = (rng.next() % 300) as u32;
            if a == b {
                continue;
            }
            let key = pair_key(a, b);
            if rng.next() % 3 == 0 {
                assert_eq!(t.remove(key), m.remove(&key), "step {step}");
            } else {
                t.insert(key, step);
                m.insert(key, step);
            }
            if step % 997 == 0 {
                for (&k, &v) in &m {
                    assert_eq!(t.get(k), Some(v));
                }
            }
            assert_eq!(t.len(), m.len());
        }
        for (&k, &v) in &m {
            assert_eq!(t.get(k), Some(v));
        }
        assert_eq!(t.get(pair_key(1000, 1001)), None);
    }

    #[test]
    fn key_is_symmetric() {
        assert_eq!(pair_key(3, 9), pair_key(9, 3));
        assert_ne!(pair_key(3, 9), pair_key(3, 10));
    }
}
