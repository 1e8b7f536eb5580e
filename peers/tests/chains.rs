//! Chain segments against Box2D v3: one-sided manifolds against
//! `b2CollideChainSegmentAnd*`, one-sided ray casts against `b2RayCastSegment(oneSided)` and
//! the ghost hit of Box2D's segment cast at a seam (ghost-freedom on flat and bent chains,
//! welding and the properties are collide2d's own `tests/chains.rs`).
//!
//! Conventions normalised before comparing with Box2D:
//! - Box2D's tolerances are absolute (speculative distance 0.02 m, 0.1 × linear slop for its
//!   "touching" branch); ours are relative to the shapes' size. Each pair at scale `s` is given
//!   to Box2D divided by `s`, and Box2D's output is multiplied by `s`.
//! - Box2D reports `separation`, frame A; we report `depth = -separation`, world space.
//! - Box2D keeps both clipped points of a two-point manifold even beyond its speculative
//!   distance; we keep only points within the margin (the rule of every pair in this crate).
//!   Verdicts are compared where Box2D's nearest point lies clearly inside the margin.
use collide2d::*;
use collide2d_peers::*;

/// Box2D's chain-segment manifold for the pair given at scale `s`, run at unit scale and
/// returned in our conventions at scale `s`.
fn b2collide_chain(seg: &ChainSegment, xa: Transform, b: &Shape, xb: Transform, s: f32) -> Manifold {
    let k = 1.0 / s;
    let Shape::ChainSegment(seg1) = scaled_shape(&Shape::ChainSegment(*seg), k) else {
        unreachable!()
    };
    let b1 = scaled_shape(b, k);
    let xa1 = Transform { p: xa.p * k, q: xa.q };
    let xb1 = Transform { p: xb.p * k, q: xb.q };
    let rel = xa1.inv_mul(xb1);
    let lm = b2collide_local(&b2shape(&Shape::ChainSegment(seg1)), &b2shape(&b1), b2xf(rel)).unwrap();
    b2local_to_world(&lm, xa, s)
}

#[derive(Default, Debug)]
struct Stats {
    pairs: usize,
    contacts: usize,
    compared: usize,
    verdict_mismatch: usize,
    /// Penetrating pairs (by Box2D) without contact at margin 0.
    margin0_misses: usize,
    /// Verdict differences at Box2D's absolute thresholds or beyond its margin (see the top).
    verdict_borderline: usize,
    /// Box2D reports nothing for a shape penetrating the segment's face (explained at the use).
    box2d_misses: usize,
    /// Box2D keeps two clipped points that both lie beyond its margin; we drop them.
    box2d_beyond_margin: usize,
    /// Box2D's depth exceeds the true one (explained at the use).
    box2d_overdeep: usize,
    normal_mismatch: usize,
    depth_mismatch: usize,
}

fn compare_with_box2d(kind: usize, n: usize, seed: u64) -> Stats {
    let mut rng = Rng(seed);
    let mut st = Stats::default();
    for i in 0..n {
        let s = [0.01, 0.1, 1.0, 10.0, 100.0, 10_000.0][i % 6];
        let seg = random_chain_segment(&mut rng, s);
        let (b, xb) = near_segment(&mut rng, &seg, kind, s);
        let xa = Transform::new(rng.vec(2.0 * s), rng.range(-3.2, 3.2));
        // Place the segment's frame at xa; B relative to it stays as generated.
        let xb = xa * xb;
        let margin = B2_SPECULATIVE_DISTANCE * s;
        let a = Shape::ChainSegment(seg);
        let ours = collide_with_margin(&a, xa, &b, xb, margin);
        let theirs = b2collide_chain(&seg, xa, &b, xb, s);
        // Clearly penetrating by Box2D and by brute force (f64 distance of the two-sided
        // segment): touching at margin 0 too (and `overlaps` agrees).
        if deepest(&theirs) > 1e-3 * s && surface_distance(&a, xa, &b, xb) < -1e-3 * f64::from(s) {
            let touching = collide(&a, xa, &b, xb).count > 0;
            if !touching || !overlaps(&a, xa, &b, xb) {
                st.margin0_misses += 1;
                if st.margin0_misses <= 3 {
                    eprintln!("margin 0 #{i} kind {kind} s {s}: theirs {theirs:?}\n seg {seg:?}\n b {b:?} xa {xa:?} xb {xb:?}");
                }
            }
        }
        st.pairs += 1;
        let their_sep = -deepest(&theirs) / s;
        let our_sep = -deepest(&ours) / s;
        let borderline = |x: f32| (x - 0.02).abs() < 2e-3 || x.abs() < 2e-3;
        if (ours.count > 0) != (theirs.count > 0) {
            // Box2D keeps clipped points beyond its margin, and decides "touching" by an
            // absolute distance: disagreements there are expected.
            let beyond = theirs.count > 0 && their_sep > 0.02;
            // Box2D misses a contact: B penetrates the segment (brute-force f64 distance of the
            // two-sided segment), its centroid is in front, and our normal is the face normal
            // (Box2D snaps there too, then clips against an edge of B that faces away).
            let face = xa.q.rotate(seg.normal());
            // Or, apart within the margin, our speculative depth is the true distance.
            let dist = surface_distance(&a, xa, &b, xb);
            let penetrating = dist < -1e-4 * f64::from(s);
            let exact = (f64::from(deepest(&ours)) + dist).abs() < 1e-4 * f64::from(s);
            let snapped = ours.count > 0 && ours.normal.dot(face) > 0.9999;
            if theirs.count == 0 && (penetrating || exact) && snapped {
                st.box2d_misses += 1;
            } else if beyond {
                st.box2d_beyond_margin += 1;
            } else if borderline(their_sep) || borderline(our_sep) {
                st.verdict_borderline += 1;
            } else {
                st.verdict_mismatch += 1;
                if st.verdict_mismatch <= 5 {
                    eprintln!(
                        "verdict #{i} kind {kind} s {s}: ours {ours:?}\n theirs {theirs:?}\n seg {seg:?}\n b {b:?} xa {xa:?} xb {xb:?}"
                    );
                }
            }
            continue;
        }
        if ours.count == 0 {
            continue;
        }
        st.contacts += 1;
        if their_sep > -1e-3 {
            continue;
        }
        st.compared += 1;
        let dot = ours.normal.dot(theirs.normal);
        if dot < 0.999 {
            st.normal_mismatch += 1;
            if st.normal_mismatch <= 5 {
                eprintln!("normal #{i} kind {kind} s {s}: ours {ours:?}\n theirs {theirs:?}\n seg {seg:?}\n b {b:?} xa {xa:?} xb {xb:?}");
            }
        } else if ((deepest(&ours) - deepest(&theirs)) / s).abs() > 2e-3 {
            // Explained: B's cores are apart and our depth is exactly the radius minus their
            // distance (brute force), where Box2D measures a point reaching round the
            // segment's end along the face normal (deeper than it is).
            let dist = surface_distance(&a, xa, &b, xb);
            if (f64::from(deepest(&ours)) + dist).abs() < 1e-4 * f64::from(s)
                && deepest(&theirs) > deepest(&ours)
            {
                st.box2d_overdeep += 1;
                continue;
            }
            st.depth_mismatch += 1;
            if st.depth_mismatch <= 5 {
                eprintln!("depth #{i} kind {kind} s {s}: ours {ours:?}\n theirs {theirs:?}");
            }
        }
    }
    eprintln!("kind {kind}: {st:?}");
    st
}

#[test]
fn chain_segment_manifolds_match_box2d() {
    for kind in 0..5 {
        let st = compare_with_box2d(kind, 20_000, 0xC4A1 + kind as u64);
        assert!(st.contacts > 1_000, "{st:?}");
        assert_eq!(st.verdict_mismatch, 0, "{st:?}");
        assert_eq!(st.margin0_misses, 0, "{st:?}");
        assert!(st.verdict_borderline * 100 < st.contacts, "{st:?}");
        assert_eq!(st.normal_mismatch, 0, "{st:?}");
        assert_eq!(st.depth_mismatch, 0, "{st:?}");
    }
}

/// One-sided ray casts against Box2D's `b2RayCastSegment(.., oneSided = true)` (the rays of
/// collide2d's `one_sided_ray_casts_from_behind_never_hit`: same seed, same draws).
#[test]
fn one_sided_ray_casts_match_box2d() {
    let mut rng = Rng(0xA7);
    let mut hits = 0;
    for i in 0..20_000 {
        let s = [0.01, 1.0, 1000.0][i % 3];
        let seg = random_chain_segment(&mut rng, s);
        let xf = Transform::new(rng.vec(s), rng.range(-3.2, 3.2));
        let target = xf.apply(seg.point1.lerp(seg.point2, rng.range(-0.2, 1.2)));
        let origin = target + rng.vec(3.0 * s);
        let ray = Ray::new(origin, (target - origin) * rng.range(0.5, 2.0));
        let sh = Shape::ChainSegment(seg);
        let ours = ray_cast(&sh, xf, &ray);
        let theirs = b2raycast_world(&sh, xf, &ray);
        match (ours, theirs) {
            (Some(o), Some(t)) => {
                hits += 1;
                assert!((o.fraction - t.fraction).abs() <= 1e-4, "#{i}: {o:?} {t:?}");
                assert!(o.normal.dot(t.normal) > 0.9999, "#{i}: {o:?} {t:?}");
            }
            (None, None) => {}
            (o, t) => {
                // Only exactly at the segment's ends or line (round-off decides).
                let f = o.or(t).unwrap();
                let hp = xf.inv_apply(f.point);
                let near_end = hp.distance(seg.point1).min(hp.distance(seg.point2)) < 1e-4 * s;
                assert!(near_end, "#{i}: ours {o:?} theirs {t:?}");
            }
        }
    }
    assert!(hits > 3000, "{hits}");
}

/// A box resting on a floor with a vertex every metre, cast along it against the segment right
/// of the first seam alone (the floor and cast of `chains_in_a_tree_are_one_sided_and_ghost_free`
/// in collide2d's `tests/chains.rs`): Box2D's cast (its chain cast is this segment cast once
/// the centroid is in front) stops at the seam's vertex, the ghost hit that ours does not have.
#[test]
fn box2d_segment_cast_stops_at_a_seam_vertex() {
    let next =
        Shape::ChainSegment(ChainSegment::new(v(4.0, 1.0), v(3.0, 1.0), v(2.0, 1.0), v(1.0, 1.0)).unwrap());
    let bx = Shape::rect(0.25, 0.25);
    let (xf, translation) = (Transform::from_translation(v(1.3, 1.25)), v(10.0, 0.0));
    let theirs = b2shapecast_world(&next, Transform::IDENTITY, Vec2::ZERO, &bx, xf, translation);
    assert!(
        matches!(theirs, Some((f, _)) if (1.3 + 10.0 * f + 0.25 - 2.0).abs() < 0.01),
        "{theirs:?}"
    );
    let ours = shape_cast(&next, Transform::IDENTITY, Vec2::ZERO, &bx, xf, translation, 0.0);
    assert_eq!(ours.state, CastState::Miss, "{ours:?}");
}
