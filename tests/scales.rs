//! Every shape constructor and level-geometry builder (tile and slope outlines, heightfields,
//! decomposition, chains, inflated shapes) at every scale: from 1e-30 to 1e30, at the origin
//! and far from it, each returns a shape that passes its validity check
//! (`Shape::is_valid`, every segment of a chain) or a named error, never an `Ok` that is not
//! valid. Within the documented range (sizes from 1e-30 up to the `OutOfRange` limit of about
//! 1.3e19 for the extent, and 1e-18 for chains, whose segments need a squared length in f32's
//! normal range) well-formed input is made, not refused.
mod common;
use collide2d::*;
use common::{v, Rng};
use quickcheck::{QuickCheck, TestResult};

/// A scale from 1e-30 to 1e30: a random power of ten with a random mantissa, or exactly one of
/// the boundaries (the smallest normal f32, the extent limit, the square-root limits).
fn scale(rng: &mut Rng) -> f32 {
    const EDGES: [f32; 8] = [
        1.0e-30,
        f32::MIN_POSITIVE,
        1.0e-19,
        1.1e-19,
        1.0e19,
        1.3e19,
        1.85e19,
        1.0e30,
    ];
    if rng.index(4) == 0 {
        EDGES[rng.index(EDGES.len())]
    } else {
        10f32.powf(rng.range(-30.0, 30.0)) * rng.range(1.0, 9.99)
    }
}

/// An offset for shapes of size `s`: none, one comparable to the size, or a large absolute one
/// (up to 1e7, where small shapes lose their detail to rounding).
fn offset(rng: &mut Rng, s: f32) -> Vec2 {
    match rng.index(3) {
        0 => Vec2::ZERO,
        1 => rng.vec(1.0) * (s * 10.0),
        _ => rng.vec(1.0e7),
    }
}

/// Whether `p` lies in the box around `points` (with rounding room).
fn near_box(p: Vec2, points: &[Vec2]) -> bool {
    let lo = points.iter().fold(points[0], |a, &q| a.min(q));
    let hi = points.iter().fold(points[0], |a, &q| a.max(q));
    let pad = (hi - lo) * 1.0e-3;
    p.x >= lo.x - pad.x && p.y >= lo.y - pad.y && p.x <= hi.x + pad.x && p.y <= hi.y + pad.y
}

fn check_shape(what: &str, r: Result<Shape, GeometryError>) -> Result<bool, String> {
    match r {
        Ok(shape) => {
            if let Err(e) = shape.validate() {
                return Err(format!("{what}: Ok({shape:?}) is not valid: {e:?}"));
            }
            if let Shape::Polygon(p) = shape {
                if !near_box(p.centroid, p.vertices()) {
                    return Err(format!("{what}: centroid outside: {p:?}"));
                }
            }
            Ok(true)
        }
        Err(_) => Ok(false),
    }
}

#[cfg(feature = "alloc")]
fn check_chain(what: &str, r: Result<Chain, GeometryError>) -> Result<bool, String> {
    match r {
        Ok(chain) => {
            for i in 0..chain.segment_count() {
                match chain.segment(i) {
                    Some(seg) if Shape::ChainSegment(seg).is_valid() => {}
                    other => {
                        return Err(format!(
                            "{what}: segment {i} of {:?} is {other:?}",
                            chain.points()
                        ))
                    }
                }
            }
            Ok(true)
        }
        Err(_) => Ok(false),
    }
}

/// A star-shaped simple polygon of `n` vertices around `c` with radii in (0.3 s, s).
fn star(rng: &mut Rng, c: Vec2, s: f32, n: usize) -> Vec<Vec2> {
    (0..n)
        .map(|k| {
            let a = k as f32 * core::f32::consts::TAU / n as f32;
            c + v(a.cos(), a.sin()) * (s * rng.range(0.3, 1.0))
        })
        .collect()
}

fn p_constructors_give_valid_shapes_or_errors(seed: u64) -> TestResult {
    let mut rng = Rng(seed);
    let s = scale(&mut rng);
    let c = offset(&mut rng, s);
    let mut made = 0;
    let mut run = || -> Result<(), String> {
        let mut count = |ok: bool| made += usize::from(ok);
        let r = s * rng.range(0.0, 1.0);
        count(check_shape("circle", Circle::new(c, r).map(Shape::Circle))?);
        let (a, b) = (c + rng.vec(s), c + rng.vec(s));
        count(check_shape("capsule", Capsule::new(a, b, r).map(Shape::Capsule))?);
        let n = 3 + rng.index(6);
        let pts: Vec<Vec2> = (0..n).map(|_| c + rng.vec(s)).collect();
        count(check_shape("polygon", Polygon::new(&pts).map(Shape::Polygon))?);
        let rounded = Polygon::new_rounded(&pts, r).map(Shape::Polygon);
        count(check_shape("rounded polygon", rounded)?);
        let regular = star(&mut rng, c, s, n);
        count(check_shape(
            "hexagon-like",
            Polygon::new(&regular).map(Shape::Polygon),
        )?);
        let (hx, hy) = (s * rng.range(0.01, 1.0), s * rng.range(0.01, 1.0));
        count(check_shape("box", Polygon::make_box(hx, hy).map(Shape::Polygon))?);
        let q = Rot::from_angle(rng.range(-3.0, 3.0));
        let offset_box = Polygon::make_offset_rounded_box(hx, hy, c, q, r).map(Shape::Polygon);
        count(check_shape("offset rounded box", offset_box)?);
        let aabb = Aabb::new(c - v(hx, hy), c + v(hx, hy));
        count(check_shape(
            "from_aabb",
            Polygon::from_aabb(aabb).map(Shape::Polygon),
        )?);
        for amount in [r, -r * 0.1] {
            if let Ok(p) = Polygon::new(&pts) {
                count(check_shape(
                    "inflated polygon",
                    p.inflated(amount).map(Shape::Polygon),
                )?);
            }
            if let Ok(k) = Capsule::new(a, b, r) {
                count(check_shape(
                    "inflated capsule",
                    k.inflated(amount).map(Shape::Capsule),
                )?);
            }
            if let Ok(k) = Circle::new(c, r) {
                count(check_shape(
                    "inflated circle",
                    k.inflated(amount).map(Shape::Circle),
                )?);
            }
        }
        let seg = ChainSegment::new(c + rng.vec(s), a, b, c + rng.vec(s));
        count(check_shape("chain segment", seg.map(Shape::ChainSegment))?);
        #[cfg(feature = "alloc")]
        {
            let line: Vec<Vec2> = (0..2 + rng.index(30)).map(|_| c + rng.vec(s)).collect();
            count(check_chain("open chain", Chain::open(&line))?);
            let corners = 3 + rng.index(40);
            let lp = star(&mut rng, c, s, corners);
            count(check_chain("closed chain", Chain::closed(&lp))?);
            if let Ok(pieces) = decompose(&lp) {
                for piece in &pieces {
                    check_shape("decomposed piece", Ok(Shape::Polygon(*piece)))?;
                }
                count(true);
            }
            let (w, h) = (1 + rng.index(6), 1 + rng.index(6));
            let cells: Vec<bool> = (0..w * h).map(|_| rng.index(2) == 0).collect();
            if let Ok(chains) = tile_outlines(w, h, s, c, |x, y| cells[y * w + x]) {
                for chain in chains {
                    check_chain("tile outline", Ok(chain))?;
                }
                count(true);
            }
            // Slope tiles on rectangular cells of about the scale's size.
            let tiles: Vec<Tile> = (0..w * h).map(|_| Tile::all()[rng.index(12)]).collect();
            let cell = v(s * rng.range(0.5, 2.0), s * rng.range(0.5, 2.0));
            if let Ok(chains) = slope_outlines(w, h, cell, c, |x, y| tiles[y * w + x]) {
                for chain in chains {
                    check_chain("slope outline", Ok(chain))?;
                }
                count(true);
            }
            // A heightfield of samples or columns, open or closed, heights within the scale.
            let heights: Vec<f32> = (0..1 + rng.index(20)).map(|_| s * rng.range(-1.0, 1.0)).collect();
            let kind = [HeightfieldKind::Samples, HeightfieldKind::Columns][rng.index(2)];
            let bottom = (rng.index(2) == 0).then_some(-2.0 * s);
            let spacing = s * rng.range(0.1, 1.0);
            count(check_chain(
                "heightfield",
                heightfield(c, spacing, &heights, kind, bottom),
            )?);
        }
        Ok(())
    };
    match run() {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(format!("scale {s:e}, offset {c:?}: {e}")),
    }
}

#[test]
fn prop_constructors_give_valid_shapes_or_named_errors_at_every_scale() {
    QuickCheck::new()
        .tests(3000)
        .quickcheck(p_constructors_give_valid_shapes_or_errors as fn(u64) -> TestResult);
}

/// Within the documented range, well-formed input is made: boxes, regular polygons and
/// capsules from 1e-30 to 1e18 (the extent limit is about 1.3e19), at the origin and at an
/// offset of 4 sizes; chains, decompositions and tile outlines from 1e-18 (their segments
/// need a direction) to 1e18. The made shapes keep their size: a box's area is `4·hx·hy` to
/// rounding, a decomposed L keeps its area 3·s² to 1e-5.
#[test]
fn well_formed_input_is_made_across_the_documented_range() {
    let mut e = -30;
    while e <= 18 {
        let s = 10f32.powi(e);
        for c in [Vec2::ZERO, v(4.0 * s, -3.0 * s)] {
            let b = Polygon::make_offset_box(s, s * 0.5, c, Rot::from_angle(0.3))
                .unwrap_or_else(|err| panic!("box at {s:e}: {err:?}"));
            assert!(b.is_valid(), "box at {s:e}: {b:?}");
            let hexagon: Vec<Vec2> = (0..6)
                .map(|k| {
                    let a = k as f32 * core::f32::consts::TAU / 6.0;
                    c + v(a.cos(), a.sin()) * s
                })
                .collect();
            let h = Polygon::new(&hexagon).unwrap_or_else(|err| panic!("hexagon at {s:e}: {err:?}"));
            assert!(h.is_valid() && h.len() == 6, "hexagon at {s:e}: {h:?}");
            // Compared in units of `s` (the squared length of a 1e-35 offset underflows).
            let off = (h.centroid - c) * (1.0 / s);
            assert!(off.length() <= 1.0e-5, "hexagon centroid at {s:e}: {h:?}");
            let k = Capsule::new(c, c + v(s, s), s * 0.1).unwrap();
            assert!(Shape::Capsule(k).is_valid());
            #[cfg(feature = "alloc")]
            if e >= -18 {
                let l = [
                    v(0.0, 0.0),
                    v(2.0, 0.0),
                    v(2.0, 1.0),
                    v(1.0, 1.0),
                    v(1.0, 2.0),
                    v(0.0, 2.0),
                ]
                .map(|p| c + p * s);
                let chain = Chain::closed(&l).unwrap_or_else(|err| panic!("chain at {s:e}: {err:?}"));
                assert_eq!(chain.points().len(), 6, "chain at {s:e}");
                let open = Chain::open(&l).unwrap_or_else(|err| panic!("open chain at {s:e}: {err:?}"));
                assert_eq!(open.segment_count(), 5);
                let pieces = decompose(&l).unwrap_or_else(|err| panic!("decompose at {s:e}: {err:?}"));
                let area: f64 = pieces
                    .iter()
                    .map(|p| {
                        let vs = p.vertices();
                        (0..vs.len())
                            .map(|i| {
                                let (a, b) = (vs[i], vs[(i + 1) % vs.len()]);
                                (f64::from(a.x - c.x) * f64::from(b.y - c.y)
                                    - f64::from(b.x - c.x) * f64::from(a.y - c.y))
                                    * 0.5
                            })
                            .sum::<f64>()
                    })
                    .sum();
                let want = 3.0 * f64::from(s) * f64::from(s);
                assert!(
                    ((area - want) / want).abs() < 1.0e-5 && pieces.iter().all(|p| p.is_valid()),
                    "decompose at {s:e}: area {area:e} of {want:e}"
                );
                let solid = [[true, true], [true, false]];
                let outlines = tile_outlines(2, 2, s, c, |x, y| solid[y][x])
                    .unwrap_or_else(|err| panic!("tiles at {s:e}: {err:?}"));
                assert_eq!(outlines.len(), 1);
                assert_eq!(outlines[0].points().len(), 6, "tiles at {s:e}");
            }
        }
        e += 1;
    }
    // Beyond the extent limit: a named error.
    assert_eq!(Polygon::make_box(1.0e19, 1.0e19), Err(GeometryError::OutOfRange));
    #[cfg(feature = "alloc")]
    assert_eq!(
        Chain::open(&[v(0.0, 0.0), v(1.0e-20, 0.0)]),
        Err(GeometryError::TooFewPoints)
    );
}
