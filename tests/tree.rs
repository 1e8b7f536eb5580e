//! Dynamic AABB tree: model-based tests. Random sequences of create / destroy / move / enlarge
//! / rebuild (with stale and out-of-range ids) keep `validate()` true, and every query, ray
//! cast and pair query returns exactly what brute force over a shadow model returns — for the
//! growable tree and for a fixed caller-provided buffer, at several scales.
mod common;
use collide2d::*;
use common::Rng;
use quickcheck::{QuickCheck, TestResult};
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn node_is_at_most_40_bytes() {
    assert_eq!(
        core::mem::size_of::<TreeNode>(),
        40,
        "Box2D's b2TreeNode is 40 bytes"
    );
    assert_eq!(core::mem::align_of::<TreeNode>(), 8);
}

#[derive(Clone, Copy, Debug)]
struct Proxy {
    fat: Aabb,
    user: u64,
    cat: u64,
}

fn random_box(rng: &mut Rng, s: f32) -> Aabb {
    let c = rng.vec(100.0 * s);
    let h = Vec2::new(rng.range(0.5, 5.0) * s, rng.range(0.5, 5.0) * s);
    Aabb::from_center_half_extents(c, h)
}

/// Closed segment-vs-box test by slabs (independent of the tree's separating-axis test).
fn segment_hits_box(p: Vec2, d: Vec2, max: f32, b: Aabb) -> bool {
    let (mut lo, mut hi) = (0.0f64, max as f64);
    for (o, dd, mn, mx) in [(p.x, d.x, b.min.x, b.max.x), (p.y, d.y, b.min.y, b.max.y)] {
        let (o, dd, mn, mx) = (o as f64, dd as f64, mn as f64, mx as f64);
        if dd == 0.0 {
            if o < mn || o > mx {
                return false;
            }
        } else {
            let (t1, t2) = ((mn - o) / dd, (mx - o) / dd);
            lo = lo.max(t1.min(t2));
            hi = hi.min(t1.max(t2));
        }
    }
    // A tolerance in the ray's parameter is one of `1e-7 · |d|` in distance: well inside the
    // `1e-4 · scale` band the callers accept as grazing (rays are up to ~500 × scale long;
    // with `1e-6` a ray starting 0.5 units past a box at scale 10 000 counted as hitting it).
    lo <= hi + 1e-7
}

fn segment_box_entry(p: Vec2, d: Vec2, max: f32, b: Aabb) -> Option<f32> {
    let (mut lo, mut hi) = (0.0f64, max as f64);
    for (o, dd, mn, mx) in [(p.x, d.x, b.min.x, b.max.x), (p.y, d.y, b.min.y, b.max.y)] {
        let (o, dd, mn, mx) = (o as f64, dd as f64, mn as f64, mx as f64);
        if dd == 0.0 {
            if o < mn || o > mx {
                return None;
            }
        } else {
            let (t1, t2) = ((mn - o) / dd, (mx - o) / dd);
            lo = lo.max(t1.min(t2));
            hi = hi.min(t1.max(t2));
        }
    }
    (lo <= hi).then_some(lo as f32)
}

/// Runs `steps` random operations on `tree`, checking against the model after each.
fn exercise<S: NodeStorage>(
    tree: &mut DynamicTree<S>,
    seed: u64,
    steps: usize,
    s: f32,
) -> Result<(), String> {
    let mut rng = Rng(seed);
    let mut model: BTreeMap<ProxyId, Proxy> = BTreeMap::new();
    let mut moved: BTreeSet<ProxyId> = BTreeSet::new();
    let margin = tree.margin();
    for step in 0..steps {
        let op = rng.index(100);
        let ids: Vec<ProxyId> = model.keys().copied().collect();
        let pick = |rng: &mut Rng| -> ProxyId {
            // Mostly live ids, sometimes stale or out of range.
            match rng.index(10) {
                0 => ProxyId::from_index(rng.next_u64() as u32),
                1 => ProxyId::from_index((tree_capacity_hint(&ids) + rng.index(8)) as u32),
                _ if !ids.is_empty() => ids[rng.index(ids.len())],
                _ => ProxyId::from_index(7),
            }
        };
        if op < 35 {
            let b = random_box(&mut rng, s);
            let user = rng.next_u64();
            let cat = 1u64 << rng.index(4);
            match tree.create_proxy(b, cat, user) {
                Ok(id) => {
                    if model.contains_key(&id) {
                        return Err(format!("step {step}: id {id:?} reused while alive"));
                    }
                    model.insert(
                        id,
                        Proxy {
                            fat: b.inflated(margin),
                            user,
                            cat,
                        },
                    );
                    moved.insert(id);
                }
                Err(TreeError::Full) => {}
                Err(e) => return Err(format!("step {step}: create failed {e:?}")),
            }
        } else if op < 50 {
            let id = pick(&mut rng);
            let r = tree.destroy_proxy(id);
            match (model.remove(&id), r) {
                (Some(_), Ok(())) => {
                    moved.remove(&id);
                }
                (None, Err(TreeError::InvalidProxy)) => {}
                (m, r) => return Err(format!("step {step}: destroy {id:?}: model {m:?} tree {r:?}")),
            }
        } else if op < 80 {
            let id = pick(&mut rng);
            // 50..72 move, 72..76 enlarge, 76..80 lazy move (rebuilt later).
            let (enlarge, lazy) = ((72..76).contains(&op), op >= 76);
            let nb = match model.get(&id) {
                Some(p) => {
                    let c = p.fat.center() + rng.vec(3.0 * s);
                    Aabb::from_center_half_extents(
                        c,
                        (p.fat.half_extents() - Vec2::new(margin, margin)).max(Vec2::ZERO),
                    )
                }
                None => random_box(&mut rng, s),
            };
            let r = if enlarge {
                tree.enlarge_proxy(id, nb)
            } else if lazy {
                tree.move_proxy_lazy(id, nb)
            } else {
                tree.move_proxy(id, nb)
            };
            match (model.get_mut(&id), r) {
                (Some(p), Ok(changed)) => {
                    let expect = !p.fat.contains(nb);
                    if changed != expect {
                        return Err(format!("step {step}: move reported {changed}, expected {expect}"));
                    }
                    if changed {
                        p.fat = if enlarge {
                            p.fat.union(nb.inflated(margin))
                        } else {
                            nb.inflated(margin)
                        };
                        moved.insert(id);
                    }
                }
                (None, Err(TreeError::InvalidProxy)) => {}
                (m, r) => return Err(format!("step {step}: move {id:?}: model {m:?} tree {r:?}")),
            }
        } else if op < 83 {
            match op {
                80 => tree.rebuild(),
                81 => {
                    let mut scratch = vec![0u32; tree.proxy_count() as usize];
                    tree.rebuild_enlarged(&mut scratch)
                        .map_err(|e| format!("step {step}: rebuild_enlarged {e:?}"))?;
                }
                _ => {
                    // Too little scratch: refused only when there is something to rebuild,
                    // and the tree stays as it was (checked below).
                    let mut scratch = vec![0u32; (tree.proxy_count() as usize).saturating_sub(1)];
                    match tree.rebuild_enlarged(&mut scratch) {
                        Ok(()) | Err(TreeError::Full) => {}
                        Err(e) => return Err(format!("step {step}: short rebuild {e:?}")),
                    }
                }
            }
        } else if op < 85 {
            // Bad input is refused and changes nothing.
            let bad = Aabb::new(Vec2::new(f32::NAN, 0.0), Vec2::new(1.0, 1.0));
            if tree.create_proxy(bad, 1, 0) != Err(TreeError::InvalidAabb) {
                return Err(format!("step {step}: NaN box accepted"));
            }
            if let Some(&id) = ids.first() {
                if tree.move_proxy(id, bad) != Err(TreeError::InvalidAabb) {
                    return Err(format!("step {step}: NaN move accepted"));
                }
            }
        } else if op < 92 {
            // Pairs among moved proxies, each once.
            let mut got = BTreeSet::new();
            let mut dup = false;
            // The first id is a moved proxy, the lower one when both moved.
            let mut report = |a: ProxyId, ua: u64, b: ProxyId, ub: u64| {
                let key = (a.min(b), a.max(b));
                dup |= !got.insert(key);
                dup |= model.get(&a).map(|p| p.user) != Some(ua) || model.get(&b).map(|p| p.user) != Some(ub);
                dup |= !moved.contains(&a) || (moved.contains(&b) && b < a);
            };
            // Both paths: the simultaneous descent and the per-proxy queries for tall trees.
            if op % 2 == 0 {
                tree.query_pairs(&mut report);
            } else {
                tree.query_pairs_per_proxy(&mut report);
            }
            let mut want = BTreeSet::new();
            for (&a, pa) in &model {
                for (&b, pb) in &model {
                    if a < b && (moved.contains(&a) || moved.contains(&b)) && pa.fat.overlaps(pb.fat) {
                        want.insert((a, b));
                    }
                }
            }
            if dup || got != want {
                return Err(format!(
                    "step {step}: pairs differ (dup {dup}): got {} want {}",
                    got.len(),
                    want.len()
                ));
            }
            moved.clear();
        } else {
            // AABB query and ray casts against brute force.
            let q = random_box(&mut rng, 3.0 * s);
            let mask = rng.next_u64() & 0xF;
            let mut got = BTreeSet::new();
            tree.query(q, mask, |id, _| {
                got.insert(id);
                Visit::Continue
            });
            let want: BTreeSet<ProxyId> = model
                .iter()
                .filter(|(_, p)| p.fat.overlaps(q) && p.cat & mask != 0)
                .map(|(&id, _)| id)
                .collect();
            if got != want {
                return Err(format!("step {step}: query differs"));
            }
            // Early stop after the first hit reports exactly one.
            let mut n = 0;
            tree.query(q, mask, |_, _| {
                n += 1;
                Visit::Stop
            });
            // The iterator reports the same set.
            let iterated: BTreeSet<ProxyId> = tree.query_iter(q, mask).map(|(id, _)| id).collect();
            if iterated != want {
                return Err(format!("step {step}: query_iter differs"));
            }
            if n != want.len().min(1) {
                return Err(format!("step {step}: early stop reported {n}"));
            }
            let p = rng.vec(150.0 * s);
            let d = rng.vec(300.0 * s);
            let ray = Ray::new(p, d);
            let mut all = BTreeSet::new();
            tree.ray_cast(&ray, u64::MAX, |_, id, _| {
                all.insert(id);
                Visit::Continue
            });
            let want_all: BTreeSet<ProxyId> = model
                .iter()
                .filter(|(_, pr)| segment_hits_box(p, d, 1.0, pr.fat))
                .map(|(&id, _)| id)
                .collect();
            // The tree's test is exact; allow only boxes the f64 slab test calls grazing.
            for id in all.symmetric_difference(&want_all) {
                let b = model[id].fat;
                let grazing = segment_hits_box(p, d, 1.0, b.inflated(1e-4 * s))
                    && !segment_hits_box(p, d, 1.0, b.inflated(-1e-4 * s));
                if !grazing {
                    return Err(format!(
                        "step {step}: ray all-hits differ on {id:?} (tree {}, f64 {}): box {b:?} ray {p:?} + t·{d:?}",
                        all.contains(id),
                        want_all.contains(id)
                    ));
                }
            }
            // Any hit: stopping at the first reports exactly one when any exists.
            let mut any = 0;
            tree.ray_cast(&ray, u64::MAX, |_, _, _| {
                any += 1;
                Visit::Stop
            });
            if any != all.len().min(1) {
                return Err(format!("step {step}: any-hit reported {any}"));
            }
            // Box cast (all hits): the swept box touches a fat box exactly when its centre's
            // segment touches the fat box grown by the half extents.
            let cast_box = random_box(&mut rng, s);
            let tr = rng.vec(200.0 * s);
            let mut swept = BTreeSet::new();
            tree.box_cast(cast_box, tr, u64::MAX, |_, id, _| {
                swept.insert(id);
                Visit::Continue
            });
            let he = cast_box.half_extents();
            let grown = |b: Aabb| Aabb::new(b.min - he, b.max + he);
            let want_swept: BTreeSet<ProxyId> = model
                .iter()
                .filter(|(_, pr)| segment_hits_box(cast_box.center(), tr, 1.0, grown(pr.fat)))
                .map(|(&id, _)| id)
                .collect();
            for id in swept.symmetric_difference(&want_swept) {
                let b = grown(model[id].fat);
                let c = cast_box.center();
                let grazing = segment_hits_box(c, tr, 1.0, b.inflated(1e-4 * s))
                    && !segment_hits_box(c, tr, 1.0, b.inflated(-1e-4 * s));
                if !grazing {
                    return Err(format!("step {step}: box cast differs on {id:?}"));
                }
            }
            // Closest hit: clip to each box's entry fraction.
            let mut best: (f32, Option<ProxyId>) = (f32::INFINITY, None);
            tree.ray_cast(&ray, u64::MAX, |r, id, _| {
                match segment_box_entry(p, d, r.max_fraction, model[&id].fat) {
                    Some(t) => {
                        if t < best.0 {
                            best = (t, Some(id));
                        }
                        Visit::Clip(t)
                    }
                    None => Visit::Continue,
                }
            });
            let brute = model
                .values()
                .filter_map(|pr| segment_box_entry(p, d, 1.0, pr.fat))
                .fold(f32::INFINITY, f32::min);
            if (best.0.is_finite() || brute.is_finite()) && (best.0 - brute).abs() > 1e-5 {
                return Err(format!("step {step}: closest hit {} vs brute {brute}", best.0));
            }
        }
        if let Err(e) = tree.validate() {
            return Err(format!("step {step}: validate {e:?}"));
        }
        if tree.proxy_count() as usize != model.len() {
            return Err(format!("step {step}: proxy count"));
        }
        for (&id, p) in &model {
            if tree.fat_aabb(id) != Ok(p.fat)
                || tree.user_data(id) != Ok(p.user)
                || tree.category_bits(id) != Ok(p.cat)
            {
                return Err(format!("step {step}: proxy {id:?} data differs"));
            }
        }
    }
    Ok(())
}

fn tree_capacity_hint(ids: &[ProxyId]) -> usize {
    ids.iter().map(|id| id.index()).max().unwrap_or(0) as usize + 1
}

const SCALES: [f32; 4] = [0.01, 1.0, 100.0, 10000.0];

#[test]
fn growable_tree_matches_brute_force() {
    fn prop(seed: u64, si: u8) -> TestResult {
        let mut tree = DynamicTree::new();
        match exercise(&mut tree, seed, 300, SCALES[si as usize % 4]) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(e),
        }
    }
    QuickCheck::new()
        .tests(60)
        .quickcheck(prop as fn(u64, u8) -> TestResult);
    // And a fixed sweep so failures reproduce from the seed.
    for seed in 0..40 {
        let mut tree = DynamicTree::new();
        exercise(&mut tree, seed, 400, SCALES[seed as usize % 4]).unwrap();
    }
}

#[test]
fn fixed_buffer_tree_matches_brute_force_and_reports_full() {
    for seed in 0..40u64 {
        // Room for 20 proxies: inserting more returns Full and leaves the tree valid.
        let mut buf = [TreeNode::default(); 39];
        let mut tree = DynamicTree::from_buffer(&mut buf);
        exercise(&mut tree, seed + 1000, 400, SCALES[seed as usize % 4]).unwrap();
    }
    let mut buf = [TreeNode::default(); 5];
    let mut tree = DynamicTree::from_buffer(&mut buf);
    let b = Aabb::new(Vec2::ZERO, Vec2::new(1.0, 1.0));
    assert!(tree.create_proxy(b, 1, 1).is_ok());
    assert!(tree.create_proxy(b, 1, 2).is_ok());
    assert!(tree.create_proxy(b, 1, 3).is_ok());
    assert_eq!(tree.create_proxy(b, 1, 4), Err(TreeError::Full));
    assert_eq!(tree.proxy_count(), 3);
    assert_eq!(tree.validate(), Ok(()));
    let mut empty: [TreeNode; 0] = [];
    let mut tree = DynamicTree::from_buffer(&mut empty);
    assert_eq!(tree.create_proxy(b, 1, 1), Err(TreeError::Full));
    assert_eq!(tree.validate(), Ok(()));
}

#[test]
fn misuse_is_refused_and_harmless() {
    let mut tree = DynamicTree::new();
    let b = Aabb::new(Vec2::ZERO, Vec2::new(1.0, 1.0));
    let a = tree.create_proxy(b, 1, 10).unwrap();
    let c = tree.create_proxy(b, 1, 11).unwrap();
    tree.destroy_proxy(a).unwrap();
    assert_eq!(tree.destroy_proxy(a), Err(TreeError::InvalidProxy));
    assert_eq!(tree.move_proxy(a, b), Err(TreeError::InvalidProxy));
    assert_eq!(
        tree.enlarge_proxy(ProxyId::from_index(u32::MAX), b),
        Err(TreeError::InvalidProxy)
    );
    assert_eq!(
        tree.user_data(ProxyId::from_index(12345)),
        Err(TreeError::InvalidProxy)
    );
    // The internal node index is not a proxy.
    let d = tree.create_proxy(b, 1, 12).unwrap();
    for i in 0..tree.capacity() as u32 {
        let i = ProxyId::from_index(i);
        if i != c && i != d {
            assert!(tree.destroy_proxy(i).is_err());
        }
    }
    assert_eq!(
        tree.create_proxy(Aabb::new(Vec2::new(1.0, 1.0), Vec2::ZERO), 1, 0),
        Err(TreeError::InvalidAabb)
    );
    assert_eq!(tree.validate(), Ok(()));
    assert_eq!(tree.proxy_count(), 2);
}

#[test]
fn move_reinserts_only_when_leaving_the_fat_box() {
    let mut tree = DynamicTree::new();
    tree.set_margin(0.5);
    let id = tree
        .create_proxy(Aabb::new(Vec2::ZERO, Vec2::new(1.0, 1.0)), 1, 0)
        .unwrap();
    // Fat box is [-0.5, 1.5]²: a move by 0.4 stays inside.
    assert_eq!(
        tree.move_proxy(id, Aabb::new(Vec2::new(0.4, 0.4), Vec2::new(1.4, 1.4))),
        Ok(false)
    );
    assert_eq!(
        tree.move_proxy(id, Aabb::new(Vec2::new(0.6, 0.6), Vec2::new(1.6, 1.6))),
        Ok(true)
    );
    let fat = tree.fat_aabb(id).unwrap();
    assert!(
        (fat.min - Vec2::new(0.1, 0.1)).length() < 1e-6 && (fat.max - Vec2::new(2.1, 2.1)).length() < 1e-6
    );
}

/// Many lazy moves then one partial rebuild: same fat boxes as plain moves, a valid tree
/// whose quality is restored to about that of a tree of plain moves, a height within a
/// small factor of log2(n), and pairs and queries that agree with the tree of plain moves.
#[test]
fn lazy_moves_and_partial_rebuild_match_plain_moves() {
    for (seed, s) in [(3u64, 0.01f32), (4, 1.0), (5, 100.0), (6, 10000.0)] {
        let mut rng = Rng(seed);
        let (mut lazy, mut plain) = (DynamicTree::new(), DynamicTree::new());
        lazy.set_margin(0.1 * s);
        plain.set_margin(0.1 * s);
        let mut ids = Vec::new();
        for _ in 0..3000 {
            let b = random_box(&mut rng, s);
            let (a, p) = (
                lazy.create_proxy(b, 1, 0).unwrap(),
                plain.create_proxy(b, 1, 0).unwrap(),
            );
            assert_eq!(a, p);
            ids.push(a);
        }
        let mut scratch = vec![0u32; ids.len()];
        let (mut moved_lazy, mut moved_plain) = (0, 0);
        for round in 0..20 {
            // Two thirds of the proxies move each round, some by far more than the margin.
            for &id in &ids {
                if rng.index(3) == 0 {
                    continue;
                }
                let b = lazy.fat_aabb(id).unwrap();
                let reach = if rng.index(10) == 0 { 30.0 } else { 0.3 };
                let nb = Aabb::from_center_half_extents(
                    b.center() + rng.vec(reach * s),
                    (b.half_extents() - Vec2::new(0.1 * s, 0.1 * s)).max(Vec2::ZERO),
                );
                moved_lazy += lazy.move_proxy_lazy(id, nb).unwrap() as u32;
                moved_plain += plain.move_proxy(id, nb).unwrap() as u32;
            }
            // Before the rebuild the lazy tree is valid (boxes contain their subtrees).
            assert_eq!(lazy.validate(), Ok(()));
            if round % 2 == 0 {
                lazy.rebuild_enlarged(&mut scratch).unwrap();
                assert_eq!(lazy.validate(), Ok(()));
                let n = ids.len() as f32;
                assert!(
                    lazy.height() as f32 <= 2.0 * n.log2() + 2.0,
                    "height {}",
                    lazy.height()
                );
                assert!(
                    lazy.area_ratio() <= 1.5 * plain.area_ratio(),
                    "seed {seed} round {round}: area ratio {} vs plain moves {}",
                    lazy.area_ratio(),
                    plain.area_ratio()
                );
            }
            for &id in &ids {
                assert_eq!(lazy.fat_aabb(id), plain.fat_aabb(id));
            }
            let pairs = |t: &mut DynamicTree<Vec<TreeNode>>| {
                let mut v = Vec::new();
                t.query_pairs(|a: ProxyId, _, b: ProxyId, _| v.push((a.min(b), a.max(b))));
                v.sort();
                v
            };
            assert_eq!(pairs(&mut lazy), pairs(&mut plain), "seed {seed} round {round}");
            let q = random_box(&mut rng, 20.0 * s);
            let hits = |t: &DynamicTree<Vec<TreeNode>>| {
                let mut v = Vec::new();
                t.query(q, u64::MAX, |id, _| {
                    v.push(id);
                    Visit::Continue
                });
                v.sort();
                v
            };
            assert_eq!(hits(&lazy), hits(&plain));
        }
        assert_eq!(moved_lazy, moved_plain);
        assert!(moved_lazy > 20_000, "moves exercised: {moved_lazy}");
    }
}

#[test]
fn rebuild_restores_quality_and_height_stays_logarithmic() {
    let mut rng = Rng(9);
    let mut tree = DynamicTree::new();
    let mut ids = Vec::new();
    for _ in 0..2000 {
        ids.push(tree.create_proxy(random_box(&mut rng, 1.0), 1, 0).unwrap());
    }
    // Balanced: height within a small factor of log2(n).
    assert!(tree.height() <= 3 * 11, "height {}", tree.height());
    let fresh = tree.area_ratio();
    // Enlarge everything a lot (no restructuring): quality degrades.
    for &id in &ids {
        let b = tree.fat_aabb(id).unwrap();
        let c = b.center() + rng.vec(30.0);
        tree.enlarge_proxy(id, Aabb::from_center_half_extents(c, b.half_extents() * 0.5))
            .unwrap();
    }
    let degraded = tree.area_ratio();
    tree.rebuild();
    let rebuilt = tree.area_ratio();
    assert_eq!(tree.validate(), Ok(()));
    assert!(
        rebuilt < degraded,
        "fresh {fresh} degraded {degraded} rebuilt {rebuilt}"
    );
}
