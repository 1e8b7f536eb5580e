//! The tree's shape-level queries against brute force over every shape: closest ray hit,
//! closest shape cast (with the overlapping-at-the-start case), every overlapping shape and
//! every contact, on random levels at scales 0.01 … 10 000, with category masks and proxies
//! the shape function skips.
mod common;
use collide2d::*;
use common::*;
use std::collections::BTreeSet;

const SCALES: [f32; 4] = [0.01, 1.0, 100.0, 10000.0];

struct Level {
    tree: DynamicTree<Vec<TreeNode>>,
    items: Vec<(Shape, Transform, u64)>,
}

impl Level {
    fn random(rng: &mut Rng, s: f32, n: usize) -> Level {
        let mut tree = DynamicTree::new();
        let mut items = Vec::new();
        for i in 0..n {
            let kind = rng.index(6);
            let shape = random_shape(rng, kind, s);
            let xf = random_transform(rng, 12.0 * s);
            let bits = 1u64 << rng.index(3);
            tree.create_proxy(shape.aabb(xf), bits, i as u64).unwrap();
            items.push((shape, xf, bits));
        }
        Level { tree, items }
    }

    /// The shape function the queries get: every 7th item is skipped (`None`).
    fn shapes<'a>(&'a self) -> impl Fn(ProxyId, u64) -> Option<(&'a Shape, Transform)> + 'a {
        |_, user| {
            let (shape, xf, _) = &self.items[user as usize];
            (user % 7 != 3).then_some((shape, *xf))
        }
    }

    /// Items the queries may see: in the mask and not skipped.
    fn visible(&self, mask: u64) -> impl Iterator<Item = (usize, &(Shape, Transform, u64))> + '_ {
        self.items
            .iter()
            .enumerate()
            .filter(move |(i, (_, _, bits))| bits & mask != 0 && i % 7 != 3)
    }
}

#[test]
fn closest_ray_hit_matches_brute_force() {
    let mut rng = Rng(501);
    let mut hits = 0;
    for round in 0..200 {
        let s = SCALES[round % 4];
        let level = Level::random(&mut rng, s, 40);
        for _ in 0..20 {
            let ray = Ray::new(rng.vec(15.0 * s), rng.vec(30.0 * s));
            let mask = [u64::MAX, 1, 6][rng.index(3)];
            let got = level.tree.ray_cast_closest(&ray, mask, level.shapes());
            let want = level
                .visible(mask)
                .filter_map(|(i, (shape, xf, _))| ray_cast(shape, *xf, &ray).map(|h| (h.fraction, i)))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            match (got, want) {
                (None, None) => {}
                (Some(g), Some((f, _))) => {
                    hits += 1;
                    // The same fraction (ties between shapes may name either).
                    assert_eq!(g.hit.fraction, f, "round {round}");
                    let (shape, xf, _) = &level.items[g.user_data as usize];
                    assert_eq!(ray_cast(shape, *xf, &ray), Some(g.hit));
                    assert_eq!(level.tree.user_data(g.id), Ok(g.user_data));
                }
                (g, w) => panic!("round {round}: tree {g:?} brute force {w:?}"),
            }
        }
    }
    assert!(hits > 1000, "{hits}");
}

#[test]
fn closest_cast_matches_brute_force() {
    let mut rng = Rng(502);
    let (mut hits, mut overlapping) = (0, 0);
    for round in 0..200 {
        let s = SCALES[round % 4];
        let level = Level::random(&mut rng, s, 40);
        for _ in 0..10 {
            let kind = rng.index(6);
            let mover = random_shape(&mut rng, kind, 0.5 * s);
            let xf = random_transform(&mut rng, 15.0 * s);
            let moving = CastShape::new(&mover, xf, rng.vec(20.0 * s));
            let skin = if rng.index(2) == 0 { 0.0 } else { 0.05 * s };
            let mask = [u64::MAX, 1, 6][rng.index(3)];
            let got = level.tree.cast_closest(&moving, skin, mask, level.shapes());
            let outs: Vec<(usize, CastOutput)> = level
                .visible(mask)
                .map(|(i, (shape, sxf, _))| {
                    (
                        i,
                        shape_cast_pair(&moving, &CastShape::at_rest(shape, *sxf), skin),
                    )
                })
                .collect();
            let starts_in: BTreeSet<usize> = outs
                .iter()
                .filter(|(_, o)| o.state == CastState::Overlapping)
                .map(|(i, _)| *i)
                .collect();
            let first_hit = outs
                .iter()
                .filter(|(_, o)| o.state == CastState::Hit)
                .map(|(_, o)| o.fraction)
                .min_by(f32::total_cmp);
            match got {
                Some(g) if g.output.state == CastState::Overlapping => {
                    overlapping += 1;
                    assert!(starts_in.contains(&(g.user_data as usize)), "round {round}");
                }
                Some(g) => {
                    hits += 1;
                    assert!(starts_in.is_empty(), "round {round}: missed a start overlap");
                    assert_eq!(g.output.state, CastState::Hit);
                    assert_eq!(Some(g.output.fraction), first_hit, "round {round}");
                }
                None => {
                    assert!(
                        starts_in.is_empty() && first_hit.is_none(),
                        "round {round}: missed {first_hit:?}"
                    );
                }
            }
        }
    }
    assert!(
        hits > 200 && overlapping > 50,
        "hits {hits} overlapping {overlapping}"
    );
}

#[test]
fn overlapping_shapes_and_contacts_match_brute_force() {
    let mut rng = Rng(503);
    let mut found = 0;
    for round in 0..200 {
        let s = SCALES[round % 4];
        let level = Level::random(&mut rng, s, 40);
        for _ in 0..10 {
            let kind = rng.index(6);
            let probe = random_shape(&mut rng, kind, 2.0 * s);
            let xf = random_transform(&mut rng, 12.0 * s);
            let mask = [u64::MAX, 1, 6][rng.index(3)];
            let got: BTreeSet<u64> = level
                .tree
                .overlapping(&probe, xf, mask, level.shapes())
                .map(|(_, u)| u)
                .collect();
            let want: BTreeSet<u64> = level
                .visible(mask)
                .filter(|(_, (shape, sxf, _))| overlaps(&probe, xf, shape, *sxf))
                .map(|(i, _)| i as u64)
                .collect();
            assert_eq!(got, want, "round {round}");
            found += got.len();
            let margin = 0.1 * s;
            let contacts: Vec<(ProxyId, u64, Manifold)> = level
                .tree
                .contacts(&probe, xf, margin, mask, level.shapes())
                .collect();
            let want: Vec<(u64, Manifold)> = level
                .visible(mask)
                .map(|(i, (shape, sxf, _))| (i as u64, collide_with_margin(&probe, xf, shape, *sxf, margin)))
                .filter(|(_, m)| m.count > 0)
                .collect();
            let mut got: Vec<(u64, Manifold)> = contacts.iter().map(|(_, u, m)| (*u, *m)).collect();
            got.sort_by_key(|(u, _)| *u);
            assert_eq!(got, want, "round {round}");
            for (id, u, _) in &contacts {
                assert_eq!(level.tree.user_data(*id), Ok(*u));
            }
        }
    }
    assert!(found > 500, "{found}");
}
