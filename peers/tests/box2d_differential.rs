//! Differential tests: our manifolds against Box2D v3's on thousands of random pairs.
//!
//! Conventions normalised before comparing:
//! - Box2D returns a manifold in frame A; we convert its normal and points to world space.
//! - Box2D reports `separation` (negative when penetrating); we report `depth = -separation`.
//! - Box2D always reports speculative points up to 0.02 m apart; we compare against
//!   `collide_with_margin(.., 0.02)`.
//! - Box2D ids are `u16` (`B2_MAKE_ID(a, b)`) with its own feature numbering; ids are not
//!   compared, only geometry.
use collide2d::*;
use collide2d_peers::*;

struct Stats {
    pairs: usize,
    contacts: usize,
    verdict_mismatch: usize,
    normal_mismatch: usize,
    depth_mismatch: usize,
    /// Disagreements where our result is verified exact independently and Box2D's is its
    /// documented approximation.
    explained: usize,
}

/// Runs `n` random pairs of kinds (ka, kb) in Box2D's canonical order and compares.
fn compare(ka: usize, kb: usize, n: usize, seed: u64) -> Stats {
    let mut rng = Rng(seed);
    let mut st = Stats {
        pairs: n,
        contacts: 0,
        verdict_mismatch: 0,
        normal_mismatch: 0,
        depth_mismatch: 0,
        explained: 0,
    };
    let margin = B2_SPECULATIVE_DISTANCE;
    for i in 0..n {
        let a = random_shape(&mut rng, ka, 1.0);
        let b = random_shape(&mut rng, kb, 1.0);
        let xa = random_transform(&mut rng, 3.0);
        let xb = Transform::new(xa.p + rng.vec(2.0), rng.range(-3.2, 3.2));
        let ours = collide_with_margin(&a, xa, &b, xb, margin);
        let theirs = b2collide_world(&a, xa, &b, xb).expect("canonical pair");
        // Near the speculative boundary the two may legitimately disagree by round-off.
        let our_sep = -deepest(&ours);
        let their_sep = -deepest(&theirs);
        let borderline = (our_sep - margin).abs() < 1e-4 || (their_sep - margin).abs() < 1e-4;
        if (ours.count > 0) != (theirs.count > 0) {
            if !borderline {
                st.verdict_mismatch += 1;
                if st.verdict_mismatch <= 3 {
                    eprintln!("verdict #{i} kinds {ka}{kb}: ours {ours:?}\n theirs {theirs:?}\n a {a:?} xa {xa:?}\n b {b:?} xb {xb:?}");
                }
            }
            continue;
        }
        if ours.count == 0 {
            continue;
        }
        st.contacts += 1;
        // Compare only real contacts (penetrating by Box2D's count), where the normal is defined
        // by the geometry rather than by speculative heuristics.
        if deepest(&theirs) <= 1e-3 {
            continue;
        }
        let dot = ours.normal.dot(theirs.normal);
        let depth_differs = (deepest(&ours) - deepest(&theirs)).abs() > 2e-3;
        let ours_res = residual_after_resolve(&ours, &a, xa, &b, xb);
        let theirs_res = residual_after_resolve(&theirs, &a, xa, &b, xb);
        let ours_exact = matches!((ours_res, theirs_res), (Some(o), Some(t)) if o <= 1e-5 && t > o + 1e-5);
        if (dot < 0.999 || depth_differs) && ours_exact {
            // Explained: Box2D approximates here and we do not. Two known cases:
            // - capsule–capsule: Box2D accepts a clipped two-point face manifold whenever the
            //   nearer clipped point is within an absolute 0.005 of the closest distance (and
            //   keeps a point that may lie far beyond its speculative distance), so its normal is
            //   the segment normal rather than the closest-point direction;
            // - rounded polygons whose cores are apart at a vertex–vertex configuration: Box2D
            //   clips the reference face, we use the exact closest core points.
            // Our manifold is checked independently: moving B by normal * depth makes the
            // surfaces touch to 1e-5 (brute-force distance in f64); Box2D's leaves a larger residual.
            st.explained += 1;
            continue;
        }
        if dot < 0.999 {
            st.normal_mismatch += 1;
            if st.normal_mismatch <= 3 {
                eprintln!("normal #{i} kinds {ka}{kb}: dot {dot}\n ours {ours:?}\n theirs {theirs:?}\n a {a:?} xa {xa:?}\n b {b:?} xb {xb:?}");
            }
            continue;
        }
        if depth_differs {
            st.depth_mismatch += 1;
            if st.depth_mismatch <= 3 {
                eprintln!("depth #{i} kinds {ka}{kb}:\n ours {ours:?}\n theirs {theirs:?}\n a {a:?} xa {xa:?}\n b {b:?} xb {xb:?}");
            }
        }
    }
    eprintln!(
        "kinds ({ka},{kb}): {} pairs, {} contacts, verdict {}, normal {}, depth {}, explained {}",
        st.pairs, st.contacts, st.verdict_mismatch, st.normal_mismatch, st.depth_mismatch, st.explained
    );
    // Explained approximations of the peer must stay rare.
    assert!(
        st.explained * 100 <= st.contacts,
        "too many Box2D approximations: {}",
        st.explained
    );
    st
}

#[test]
fn circles_match_box2d() {
    let st = compare(0, 0, 4000, 1);
    assert!(st.contacts > 500);
    assert_eq!(
        (st.verdict_mismatch, st.normal_mismatch, st.depth_mismatch),
        (0, 0, 0)
    );
}

#[test]
fn capsule_circle_matches_box2d() {
    let st = compare(1, 0, 4000, 2);
    assert!(st.contacts > 500);
    assert_eq!(
        (st.verdict_mismatch, st.normal_mismatch, st.depth_mismatch),
        (0, 0, 0)
    );
}

#[test]
fn polygon_circle_matches_box2d() {
    for (k, seed) in [(2, 3), (3, 4), (4, 5)] {
        let st = compare(k, 0, 4000, seed);
        assert!(st.contacts > 500);
        assert_eq!(
            (st.verdict_mismatch, st.normal_mismatch, st.depth_mismatch),
            (0, 0, 0)
        );
    }
}

#[test]
fn capsules_match_box2d() {
    for (ka, kb, seed) in [(1, 1, 6), (5, 1, 7), (1, 5, 8)] {
        let st = compare(ka, kb, 4000, seed);
        assert!(st.contacts > 500);
        assert_eq!(
            (st.verdict_mismatch, st.normal_mismatch, st.depth_mismatch),
            (0, 0, 0)
        );
    }
}

#[test]
fn polygon_capsule_matches_box2d() {
    for (ka, kb, seed) in [(2, 1, 9), (4, 1, 10), (3, 1, 11)] {
        let st = compare(ka, kb, 4000, seed);
        assert!(st.contacts > 500);
        assert_eq!(
            (st.verdict_mismatch, st.normal_mismatch, st.depth_mismatch),
            (0, 0, 0)
        );
    }
}

#[test]
fn polygons_match_box2d() {
    for (ka, kb, seed) in [(2, 2, 12), (4, 4, 13), (3, 3, 14), (2, 4, 15), (3, 2, 16)] {
        let st = compare(ka, kb, 4000, seed);
        assert!(st.contacts > 500);
        assert_eq!(
            (st.verdict_mismatch, st.normal_mismatch, st.depth_mismatch),
            (0, 0, 0)
        );
    }
}
