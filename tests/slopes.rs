//! Tile maps with slopes (`slope_outlines`) and heightfields (`heightfield`).
//!
//! The outlines are checked cell by cell against brute force: on random maps of every tile
//! kind, with square and rectangular cells and far from the origin, the loops' winding
//! number at sample points inside every cell is 1 exactly where the cell's tile is solid and 0
//! elsewhere, the loops' total area equals the tiles' (exact in f64: every corner is on the
//! half-cell lattice), consecutive edges are never collinear (runs are merged) except at a
//! point the loop passes through again, and no corner of a loop lies inside one of its edges.
//! Full and empty maps give the same loops as `tile_outlines`. Heightfields keep every sample
//! far from the origin (brute force in f64). A character walks over every slope kind both
//! ways, and a box slides down long slopes falling either way and over half blocks either way,
//! without a snag.
mod common;
use collide2d::*;
use common::{at, surface_distance, v, Rng};

/// Twice the signed area of loop `pts`, in f64.
fn area2(pts: &[Vec2]) -> f64 {
    (0..pts.len())
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            f64::from(a.x) * f64::from(b.y) - f64::from(b.x) * f64::from(a.y)
        })
        .sum()
}

/// The winding number of the loops around `p` (f64, exact for lattice corners).
fn winding(chains: &[Chain], p: (f64, f64)) -> i32 {
    let mut w = 0;
    for c in chains {
        let pts = c.points();
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            let (ax, ay, bx, by) = (f64::from(a.x), f64::from(a.y), f64::from(b.x), f64::from(b.y));
            let side = (bx - ax) * (p.1 - ay) - (by - ay) * (p.0 - ax);
            if ay <= p.1 && by > p.1 && side > 0.0 {
                w += 1;
            } else if ay > p.1 && by <= p.1 && side < 0.0 {
                w -= 1;
            }
        }
    }
    w
}

/// Whether cell point `(u, v)` (cell units, 0..1) is inside `tile` (no sample lies on an edge).
fn inside(tile: Tile, (u, w): (f64, f64)) -> bool {
    let c = tile.corners();
    !c.is_empty()
        && (0..c.len()).all(|i| {
            let (a, b) = (c[i], c[(i + 1) % c.len()]);
            let (ax, ay) = (f64::from(a.0) / 2.0, f64::from(a.1) / 2.0);
            let (bx, by) = (f64::from(b.0) / 2.0, f64::from(b.1) / 2.0);
            (bx - ax) * (w - ay) - (by - ay) * (u - ax) > 0.0
        })
}

/// Checks the outline of `tiles` against brute force (see the module docs).
fn check(width: usize, height: usize, tiles: &[Tile], cell: Vec2, origin: Vec2) {
    let chains = slope_outlines_from_tiles(width, height, tiles, cell, origin).unwrap();
    // Area: each tile's area in quarter cells, against the loops' (in units of cell area).
    let quarter: f64 = tiles
        .iter()
        .map(|t| {
            let c: Vec<Vec2> = t
                .corners()
                .iter()
                .map(|&(x, y)| v(f32::from(x), f32::from(y)))
                .collect();
            if c.is_empty() {
                0.0
            } else {
                area2(&c) / 2.0
            }
        })
        .sum();
    let loops: f64 = chains.iter().map(|c| area2(c.points()) / 2.0).sum();
    let want = quarter / 4.0 * f64::from(cell.x) * f64::from(cell.y);
    assert!(
        (loops - want).abs() <= want.abs() * 1e-6 + 1e-9,
        "area {loops} against {want}"
    );
    // Merged runs: consecutive edges turn, except at a point the loop passes through again
    // (each pass through it keeps a corner there).
    for c in &chains {
        let p = c.points();
        for i in 0..p.len() {
            let (a, b, d) = (p[i], p[(i + 1) % p.len()], p[(i + 2) % p.len()]);
            let e = (f64::from(b.x - a.x), f64::from(b.y - a.y));
            let f = (f64::from(d.x - b.x), f64::from(d.y - b.y));
            let again = p.iter().filter(|&&q| q == b).count() > 1;
            assert!(
                e.0 * f.1 - e.1 * f.0 != 0.0 || again,
                "collinear corner {b:?} in {p:?}"
            );
        }
        // And every point the loop passes through more than once is a corner of each pass: no
        // corner of the loop lies inside one of its edges.
        for i in 0..p.len() {
            let (a, b) = (p[i], p[(i + 1) % p.len()]);
            for &q in p {
                let (e, f) = (
                    (f64::from(b.x) - f64::from(a.x), f64::from(b.y) - f64::from(a.y)),
                    (f64::from(q.x) - f64::from(a.x), f64::from(q.y) - f64::from(a.y)),
                );
                let along = e.0 * f.0 + e.1 * f.1;
                let inside = e.0 * f.1 - e.1 * f.0 == 0.0 && along > 0.0 && along < e.0 * e.0 + e.1 * e.1;
                assert!(!inside, "corner {q:?} inside edge {a:?}-{b:?} in {p:?}");
            }
        }
    }
    // Winding at samples inside every cell.
    for y in 0..height {
        for x in 0..width {
            let t = tiles[y * width + x];
            for i in 0..4 {
                for j in 0..4 {
                    let (u, w) = ((i as f64 + 0.3) / 4.0, (j as f64 + 0.6) / 4.0);
                    let p = (
                        f64::from(origin.x) + (x as f64 + u) * f64::from(cell.x),
                        f64::from(origin.y) + (y as f64 + w) * f64::from(cell.y),
                    );
                    let want = i32::from(inside(t, (u, w)));
                    assert_eq!(
                        winding(&chains, p),
                        want,
                        "cell ({x}, {y}) {t:?} at ({u}, {w}): {width}x{height} {tiles:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn random_slope_maps_outline_every_cell_exactly() {
    let mut rng = Rng(77);
    for case in 0..400 {
        let (w, h) = (1 + rng.index(12), 1 + rng.index(10));
        let tiles: Vec<Tile> = (0..w * h)
            .map(|_| match rng.index(3) {
                0 => Tile::Empty,
                1 => Tile::Full,
                _ => Tile::all()[rng.index(12)],
            })
            .collect();
        let cell = match case % 3 {
            0 => v(1.0, 1.0),
            1 => v(0.5, 1.5),
            _ => v(2.0, 0.25),
        };
        let origin = if case % 4 == 3 {
            v(-1.0e5, 3.0e4)
        } else {
            v(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0))
        };
        check(w, h, &tiles, cell, origin);
    }
}

/// Every pair of tiles side by side and one above the other: the seams between any two kinds
/// are outlined exactly.
#[test]
fn every_pair_of_tiles_outlines_exactly() {
    for a in Tile::all() {
        for b in Tile::all() {
            check(2, 1, &[a, b], v(1.0, 1.0), Vec2::ZERO);
            check(1, 2, &[a, b], v(1.0, 1.0), Vec2::ZERO);
            check(2, 2, &[a, b, b, a], v(1.5, 0.5), v(3.0, -2.0));
        }
    }
}

/// Full and empty maps: the same loops as `tile_outlines` (as point sequences up to where
/// each loop starts).
#[test]
fn full_and_empty_maps_match_tile_outlines() {
    let mut rng = Rng(5);
    for _ in 0..200 {
        let (w, h) = (1 + rng.index(15), 1 + rng.index(15));
        let cells: Vec<bool> = (0..w * h).map(|_| rng.index(2) == 0).collect();
        let tiles: Vec<Tile> = cells
            .iter()
            .map(|&c| if c { Tile::Full } else { Tile::Empty })
            .collect();
        let mut ours: Vec<Vec<(u32, u32)>> =
            slope_outlines_from_tiles(w, h, &tiles, v(1.0, 1.0), v(0.5, 0.25))
                .unwrap()
                .iter()
                .map(|c| canonical(c.points()))
                .collect();
        let mut theirs: Vec<Vec<(u32, u32)>> = tile_outlines_from_cells(w, h, &cells, 1.0, v(0.5, 0.25))
            .unwrap()
            .iter()
            .map(|c| canonical(c.points()))
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{w}x{h} {cells:?}");
    }
}

/// A loop's points as bits, rotated to start at its least point.
fn canonical(pts: &[Vec2]) -> Vec<(u32, u32)> {
    let bits: Vec<(u32, u32)> = pts.iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect();
    let k = (0..bits.len()).min_by_key(|&i| bits[i]).unwrap();
    bits[k..].iter().chain(&bits[..k]).copied().collect()
}

/// A 45° slope across ten cells and a 2:1 ramp across twenty are one segment each: the
/// outline of each is a single triangle.
#[test]
fn long_slopes_are_one_segment() {
    let n = 10;
    let slope: Vec<Tile> = (0..n * n)
        .map(|i| {
            let (x, y) = (i % n, i / n);
            match y.cmp(&x) {
                core::cmp::Ordering::Less => Tile::Full,
                core::cmp::Ordering::Equal => Tile::SlopeUp,
                core::cmp::Ordering::Greater => Tile::Empty,
            }
        })
        .collect();
    let chains = slope_outlines_from_tiles(n, n, &slope, v(1.0, 1.0), Vec2::ZERO).unwrap();
    assert_eq!(chains.len(), 1);
    assert_eq!(
        canonical(chains[0].points()),
        canonical(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0)])
    );
    let (w, h) = (2 * n, n);
    let ramp: Vec<Tile> = (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            match y.cmp(&(x / 2)) {
                core::cmp::Ordering::Less => Tile::Full,
                core::cmp::Ordering::Equal if x % 2 == 0 => Tile::RampUpLow,
                core::cmp::Ordering::Equal => Tile::RampUpHigh,
                core::cmp::Ordering::Greater => Tile::Empty,
            }
        })
        .collect();
    let chains = slope_outlines_from_tiles(w, h, &ramp, v(1.0, 1.0), Vec2::ZERO).unwrap();
    assert_eq!(chains.len(), 1);
    assert_eq!(
        canonical(chains[0].points()),
        canonical(&[v(0.0, 0.0), v(20.0, 0.0), v(20.0, 10.0)])
    );
}

#[test]
fn bad_grids_are_named_errors() {
    let t = [Tile::Full];
    for cell in [v(0.0, 1.0), v(1.0, -1.0), v(f32::NAN, 1.0), v(1.0, f32::INFINITY)] {
        assert_eq!(
            slope_outlines_from_tiles(1, 1, &t, cell, Vec2::ZERO),
            Err(GeometryError::InvalidGrid)
        );
    }
    assert_eq!(
        slope_outlines_from_tiles(2, 1, &t, v(1.0, 1.0), Vec2::ZERO),
        Err(GeometryError::InvalidGrid)
    );
    // Half-cell lines that round together far from the origin.
    assert_eq!(
        slope_outlines_from_tiles(1, 1, &t, v(1.0, 1.0), v(1.0e8, 0.0)),
        Err(GeometryError::OutOfRange)
    );
    assert_eq!(
        slope_outlines(usize::MAX, 2, v(1.0, 1.0), Vec2::ZERO, |_, _| Tile::Full),
        Err(GeometryError::InvalidGrid)
    );
    assert_eq!(Tile::from_u8(12), None);
    assert_eq!(Tile::from_u8(9), Some(Tile::RampUpHigh));
}

#[test]
fn heightfields_make_the_surface_and_the_ground_under_it() {
    let h = [1.0, 2.0, 3.0, 3.0, 1.0];
    // Samples 0.5 apart from (10, 0): the middle sample of the straight rise is merged, the
    // surface runs right to left (front side up).
    let open = heightfield(v(10.0, 0.0), 0.5, &h, HeightfieldKind::Samples, None).unwrap();
    assert!(!open.is_closed());
    assert_eq!(
        open.points(),
        &[v(12.0, 1.0), v(11.5, 3.0), v(11.0, 3.0), v(10.0, 1.0)]
    );
    assert!(open.segments().all(|s| s.normal().y > 0.0));
    let closed = heightfield(v(10.0, 0.0), 0.5, &h, HeightfieldKind::Samples, Some(-1.0)).unwrap();
    assert_eq!(closed.points().len(), 6, "{:?}", closed.points());
    // Counter-clockwise, enclosing the area under the samples down to y = -1.
    let trapezoids: f64 = h
        .windows(2)
        .map(|w| 0.5 * f64::from(w[0] + w[1] + 2.0) / 2.0)
        .sum();
    assert!((area2(closed.points()) / 2.0 - trapezoids).abs() < 1e-5);
    // Columns: flat tops with vertical steps.
    let cols = heightfield(
        Vec2::ZERO,
        1.0,
        &[1.0, 2.0, 2.0, 0.5],
        HeightfieldKind::Columns,
        None,
    )
    .unwrap();
    assert_eq!(
        cols.points(),
        &[
            v(4.0, 0.5),
            v(3.0, 0.5),
            v(3.0, 2.0),
            v(1.0, 2.0),
            v(1.0, 1.0),
            v(0.0, 1.0)
        ]
    );
    let ground = heightfield(
        Vec2::ZERO,
        1.0,
        &[1.0, 2.0, 2.0, 0.5],
        HeightfieldKind::Columns,
        Some(0.0),
    )
    .unwrap();
    assert!((area2(ground.points()) / 2.0 - 5.5).abs() < 1e-6);
    // Errors.
    let samples = HeightfieldKind::Samples;
    assert_eq!(
        heightfield(Vec2::ZERO, 1.0, &[1.0], samples, None),
        Err(GeometryError::TooFewPoints)
    );
    assert_eq!(
        heightfield(Vec2::ZERO, 0.0, &h, samples, None),
        Err(GeometryError::InvalidGrid)
    );
    assert_eq!(
        heightfield(Vec2::ZERO, 1.0, &h, samples, Some(1.0)),
        Err(GeometryError::InvalidGrid)
    );
    assert_eq!(
        heightfield(Vec2::ZERO, 1.0, &[1.0, f32::NAN], samples, None),
        Err(GeometryError::NonFinite)
    );
}

/// The polyline a heightfield stands for, by brute force in `f64`: every sample (or both ends
/// of every column) right to left, then for a loop the two bottom corners; consecutive
/// duplicates dropped and, as long as there is one, a point strictly inside the segment
/// between its neighbours (exact here: the coordinates are integers or quarters).
fn heightfield_reference(
    origin: (f64, f64),
    spacing: f64,
    heights: &[f64],
    columns: bool,
    bottom: Option<f64>,
) -> Vec<(f64, f64)> {
    let x = |k: usize| origin.0 + k as f64 * spacing;
    let mut p: Vec<(f64, f64)> = Vec::new();
    for (k, &h) in heights.iter().enumerate().rev() {
        if columns {
            p.push((x(k + 1), origin.1 + h));
        }
        p.push((x(k), origin.1 + h));
    }
    if let Some(b) = bottom {
        let right = if columns { heights.len() } else { heights.len() - 1 };
        p.push((x(0), origin.1 + b));
        p.push((x(right), origin.1 + b));
    }
    let closed = bottom.is_some();
    loop {
        let n = p.len();
        let dup = (0..n).find(|&i| (i + 1 < n || closed) && p[i] == p[(i + 1) % n]);
        if let Some(i) = dup {
            p.remove(i);
            continue;
        }
        let inner = if closed { 0..n } else { 1..n - 1 };
        let straight = inner.into_iter().find(|&i| {
            let (a, c, b) = (p[(i + n - 1) % n], p[i], p[(i + 1) % n]);
            let cross = (c.0 - a.0) * (b.1 - a.1) - (c.1 - a.1) * (b.0 - a.0);
            let dot = (a.0 - c.0) * (b.0 - c.0) + (a.1 - c.1) * (b.1 - c.1);
            cross == 0.0 && dot < 0.0
        });
        match straight {
            Some(i) => {
                p.remove(i);
            }
            None => return p,
        }
    }
}

/// Heightfields far from the origin keep their shape: at origins 1e3 … 1e7, with integer
/// heights (and quarters up to 1e6) on integer spacings, so that every point is exact in
/// `f32`, the chain's points are exactly the brute-force polyline's (every sample kept unless
/// it lies exactly on its neighbours' segment), for samples and columns, open and closed.
/// Bumps of one unit at 1e7 are kept (a distance tolerance relative to the coordinates would
/// weld them away).
#[test]
fn heightfields_far_from_the_origin_keep_every_sample() {
    let mut rng = Rng(0x4E16);
    let (mut failures, mut cases) = (Vec::new(), 0);
    for &far in &[1.0e3f32, 1.0e4, 1.0e5, 1.0e6, 4.0e6, 1.0e7] {
        for round in 0..60 {
            let n = 2 + rng.index(40);
            let quarter = far <= 1.0e6 && round % 2 == 0;
            let mut h = rng.index(20) as f32;
            let heights: Vec<f32> = (0..n)
                .map(|_| {
                    // Runs of equal steps (collinear samples), bumps of one unit, jumps.
                    h += match rng.index(4) {
                        0 => 0.0,
                        1 => 1.0,
                        2 => -1.0,
                        _ => rng.index(9) as f32 - 4.0,
                    } * if quarter { 0.25 } else { 1.0 };
                    h
                })
                .collect();
            let spacing = [1.0f32, 2.0, 3.0][rng.index(3)];
            let origin = v(
                far * [1.0, -1.0][round % 2] + rng.index(100) as f32,
                far * [1.0, 0.0, -1.0][round % 3] + rng.index(100) as f32,
            );
            let least = heights.iter().fold(f32::INFINITY, |m, &x| m.min(x));
            for kind in [HeightfieldKind::Samples, HeightfieldKind::Columns] {
                for bottom in [None, Some(least - 1.0 - rng.index(5) as f32)] {
                    cases += 1;
                    let want = heightfield_reference(
                        (f64::from(origin.x), f64::from(origin.y)),
                        f64::from(spacing),
                        &heights.iter().map(|&x| f64::from(x)).collect::<Vec<_>>(),
                        kind == HeightfieldKind::Columns,
                        bottom.map(f64::from),
                    );
                    let got = heightfield(origin, spacing, &heights, kind, bottom).map(|c| {
                        c.points()
                            .iter()
                            .map(|p| (f64::from(p.x), f64::from(p.y)))
                            .collect::<Vec<_>>()
                    });
                    // A loop may start anywhere: compare from the reference's first point.
                    let same = match &got {
                        Ok(g) if g.len() == want.len() => {
                            let start = g.iter().position(|&q| q == want[0]).unwrap_or(0);
                            (0..g.len()).all(|i| g[(start + i) % g.len()] == want[i])
                        }
                        _ => false,
                    };
                    if !same {
                        failures.push(format!(
                            "{kind:?} at {origin:?}, bottom {bottom:?}: {} points of {} ({:?})",
                            got.as_ref().map_or(0, Vec::len),
                            want.len(),
                            got.as_ref().err()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} heightfields changed, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(4)]
    );
    // Beyond the range: sample lines that round together, a bottom that rounds onto the
    // surface.
    let samples = HeightfieldKind::Samples;
    assert_eq!(
        heightfield(v(1.0e8, 0.0), 1.0, &[1.0, 2.0, 3.0], samples, None),
        Err(GeometryError::OutOfRange)
    );
    assert_eq!(
        heightfield(v(0.0, 1.0e8), 1.0, &[1.0, 2.0], samples, Some(0.5)),
        Err(GeometryError::OutOfRange)
    );
}

/// The terrain of the walk: per column, the full rows and the tile on top of them.
fn terrain() -> Vec<(usize, Tile)> {
    use Tile::*;
    let mut cols = vec![(1, Empty); 4];
    cols.extend([(1, SlopeUp), (2, SlopeUp)]);
    cols.extend([(3, Empty); 3]);
    cols.extend([(2, SlopeDown), (1, SlopeDown)]);
    cols.extend([(1, Empty); 2]);
    cols.extend([(1, RampUpLow), (1, RampUpHigh), (2, RampUpLow), (2, RampUpHigh)]);
    cols.extend([(3, Empty); 2]);
    cols.extend([
        (2, RampDownHigh),
        (2, RampDownLow),
        (1, RampDownHigh),
        (1, RampDownLow),
    ]);
    cols.extend([(1, Empty); 2]);
    // Up a half-height step (auto-step), along half blocks, down a 2:1 ramp's low cell.
    cols.extend([(1, HalfBottom); 3]);
    cols.push((1, RampDownLow));
    cols.extend([(1, Empty); 6]);
    cols
}

/// The terrain's tiles, `height` rows.
fn terrain_tiles(cols: &[(usize, Tile)], height: usize) -> Vec<Tile> {
    let w = cols.len();
    (0..w * height)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let (full, top) = cols[x];
            if y < full {
                Tile::Full
            } else if y == full {
                top
            } else {
                Tile::Empty
            }
        })
        .collect()
}

/// The terrain's top at `x` (cell units): the highest solid point of the column.
fn top_at(cols: &[(usize, Tile)], x: f64) -> f64 {
    let k = (x.floor().max(0.0) as usize).min(cols.len() - 1);
    let (full, tile) = cols[k];
    let u = x - k as f64;
    // The tile's top along its column: the highest corner edge over `u`.
    let c = tile.corners();
    let mut top = 0.0f64;
    for i in 0..c.len() {
        let (a, b) = (c[i], c[(i + 1) % c.len()]);
        let (ax, ay, bx, by) = (
            f64::from(a.0) / 2.0,
            f64::from(a.1) / 2.0,
            f64::from(b.0) / 2.0,
            f64::from(b.1) / 2.0,
        );
        if (ax.min(bx)..=ax.max(bx)).contains(&u) && ax != bx {
            top = top.max(ay + (by - ay) * (u - ax) / (bx - ax));
        }
    }
    full as f64 + top
}

/// A capsule character walks over every slope kind of [`terrain`] (45° up and down, 2:1
/// ramps up and down, half-height blocks), as one outline, at 4 m/s with ground snap and
/// auto-step, rightward (`dir` 1, from the left end) or leftward (`dir` -1, from the right
/// end, so every kind is crossed the other way): it stands on the ground every frame, never
/// enters the surface (clearance above a quarter skin, against every segment by brute force),
/// never hangs above the terrain under it, never stalls (each frame moves it along by at least
/// a third of the commanded step) and reaches the other end. The one exception to standing on
/// the ground is stepping down a ledge (`ledges`, the columns' left edges in cells where the
/// walk drops half a cell): at most one frame off the ground within 0.6 of each.
fn walk_over_every_slope_kind(dir: f32, ledges: &[f32]) {
    let cols = terrain();
    let rows = 5;
    for cell in [v(1.0, 1.0), v(1.5, 1.0)] {
        let tiles = terrain_tiles(&cols, rows);
        let chains = slope_outlines_from_tiles(cols.len(), rows, &tiles, cell, Vec2::ZERO).unwrap();
        assert_eq!(chains.len(), 1, "one outline");
        let segments: Vec<Shape> = chains[0].segments().map(Shape::ChainSegment).collect();
        let obstacles: Vec<Obstacle<'_>> = segments
            .iter()
            .enumerate()
            .map(|(i, s)| Obstacle::fixed(s, Transform::IDENTITY, i as u64))
            .collect();
        let mover = Shape::Capsule(Capsule::new(v(0.0, -0.2), v(0.0, 0.2), 0.3).unwrap());
        let opts = MoveOptions {
            max_slope: 0.9,
            ground_snap: 0.6,
            max_step_height: 0.55,
            ..MoveOptions::default()
        };
        let (speed, dt) = (4.0f32, 1.0f32 / 60.0);
        // Both ends are flat at one cell's height; the walk ends two columns before the far end.
        let (left, right) = (1.5 * cell.x, (cols.len() - 2) as f32 * cell.x);
        let (start, end) = if dir > 0.0 { (left, right) } else { (right, left) };
        let mut pos = v(start, cell.y + 0.5 + opts.skin);
        let mut vel = Vec2::ZERO;
        let mut frames = 0;
        let mut airborne = 0;
        while (end - pos.x) * dir > 0.0 {
            frames += 1;
            assert!(frames < 2000, "{cell:?}, dir {dir}: stuck at {pos:?}");
            vel = v(speed * dir, vel.y - 9.8 * dt);
            let r = move_and_slide(&obstacles[..], &mover, at(pos.x, pos.y), vel * dt, vel, &opts);
            let clearance = segments
                .iter()
                .map(|s| surface_distance(s, Transform::IDENTITY, &mover, at(r.position.x, r.position.y)))
                .fold(f64::INFINITY, f64::min);
            assert!(
                clearance >= f64::from(opts.skin) * 0.25 - 1e-5,
                "{cell:?}, dir {dir}: inside at {r:?}"
            );
            if !r.on_ground {
                airborne += 1;
                let at_ledge = ledges.iter().any(|&l| (r.position.x - l * cell.x).abs() < 0.6);
                assert!(
                    at_ledge && airborne <= ledges.len(),
                    "{cell:?}, dir {dir}: off the ground at {r:?}"
                );
            }
            assert!(
                (r.position.x - pos.x) * dir >= speed * dt / 3.0,
                "{cell:?}, dir {dir}: stalled from {pos:?} to {r:?}"
            );
            // Its bottom is no higher than the terrain's highest point under its width.
            let bottom = f64::from(r.position.y) - 0.5;
            let under = (0..=12)
                .map(|k| {
                    let x = f64::from(r.position.x) + (k as f64 / 12.0 - 0.5) * 0.6;
                    top_at(&cols, x / f64::from(cell.x)) * f64::from(cell.y)
                })
                .fold(f64::MIN, f64::max);
            assert!(
                bottom <= under + 0.05,
                "{cell:?}, dir {dir}: {bottom} above {under} at {r:?}"
            );
            pos = r.position;
            vel = r.velocity;
        }
    }
}

/// A character walks right over every slope kind without a snag (see
/// [`walk_over_every_slope_kind`]).
#[test]
fn a_character_walks_over_every_slope_kind_without_a_snag() {
    walk_over_every_slope_kind(1.0, &[]);
}

/// A character walks left over every slope kind without a snag: each 45° slope and 2:1 ramp
/// is crossed in the other direction (up what the rightward walk goes down), and the half
/// blocks (which the rightward walk climbs by auto-step) are left by a ledge half a cell high
/// at column 25, the one place it may leave the ground for a frame.
#[test]
fn a_character_walks_leftward_over_every_slope_kind_without_a_snag() {
    walk_over_every_slope_kind(-1.0, &[25.0]);
}

/// Slides a box of half size 0.25 (friction 0) in a `World` over the first outline of
/// `tiles` (`w` × `h`, cells of 1), starting at `start` (its centre) turned by `angle` with
/// velocity `velocity`, for 240 steps of 1/60 s. While the box is more than two cells from the
/// map's sides its speed across the surface (along `normal`) stays below 0.05 m/s and it does
/// not turn (|ω| < 0.05 rad/s): it slides over the tiles' seams without a snag. Returns how
/// many steps were checked.
fn slide(
    what: &str,
    tiles: &[Tile],
    (w, h): (usize, usize),
    start: Vec2,
    angle: f32,
    velocity: Vec2,
    normal: Vec2,
) -> usize {
    let chains = slope_outlines_from_tiles(w, h, tiles, v(1.0, 1.0), Vec2::ZERO).unwrap();
    let mut world = World::default();
    world.add_chain(&ChainDef::new(&chains[0])).unwrap();
    let mut def = BodyDef::new(
        BodyKind::Dynamic,
        Transform::new(start, angle),
        Shape::rect(0.25, 0.25),
    );
    def.material.friction = 0.0;
    def.linear_velocity = velocity;
    let id = world.add_body(&def).unwrap();
    let mut slid = 0;
    for step in 0..240 {
        world.step(1.0 / 60.0, 4).unwrap();
        let b = *world.body(id).unwrap();
        let x = b.transform.p.x;
        if !(2.0..w as f32 - 2.0).contains(&x) {
            continue;
        }
        slid += 1;
        let across = b.linear_velocity.dot(normal);
        assert!(
            across.abs() < 0.05 && b.angular_velocity.abs() < 0.05,
            "{what}: step {step} at {:?}: across {across}, ω {}",
            b.transform.p,
            b.angular_velocity
        );
    }
    slid
}

/// A slope of `n` rows falling to the right (`right`) or to the left, as 45° tiles
/// (`SlopeDown` / `SlopeUp`) or 2:1 ramps of `n` pairs (`RampDownHigh`, `RampDownLow` /
/// `RampUpLow`, `RampUpHigh`), full cells under it; its width.
fn slope_map(n: usize, ramp: bool, right: bool) -> (Vec<Tile>, usize) {
    let w = if ramp { 2 * n } else { n };
    let tiles = (0..w * n)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            // The column counted from the slope's high end.
            let k = if right { x } else { w - 1 - x };
            let row = if ramp { n - 1 - k / 2 } else { n - 1 - k };
            // The high cell of a ramp pair is the one nearer the high end.
            let high = k % 2 == 0;
            match (y.cmp(&row), ramp, right, high) {
                (core::cmp::Ordering::Less, ..) => Tile::Full,
                (core::cmp::Ordering::Greater, ..) => Tile::Empty,
                (_, false, true, _) => Tile::SlopeDown,
                (_, false, false, _) => Tile::SlopeUp,
                (_, true, true, true) => Tile::RampDownHigh,
                (_, true, true, false) => Tile::RampDownLow,
                (_, true, false, true) => Tile::RampUpHigh,
                (_, true, false, false) => Tile::RampUpLow,
            }
        })
        .collect();
    (tiles, w)
}

/// A box (friction 0) sliding down a 45° slope of twelve tiles and down a 2:1 ramp of twelve
/// pairs, each one outline in a `World`, falling to the right (`SlopeDown`, `RampDown*`) and
/// to the left (`SlopeUp`, `RampUp*`): its speed across the surface stays below 0.05 m/s and
/// it does not turn (|ω| < 0.05 rad/s) while it slides over the tiles' seams.
#[test]
fn a_box_slides_down_long_slopes_without_a_snag() {
    for (ramp, rise) in [(false, 1.0f32), (true, 0.5)] {
        for right in [true, false] {
            let n = 12;
            let (tiles, w) = slope_map(n, ramp, right);
            // Falling to the right is the picture mirrored in x.
            let s = if right { 1.0 } else { -1.0 };
            let normal = v(s * rise, 1.0) * (1.0 / (1.0 + rise * rise).sqrt());
            // Resting on the slope 1.5 cells from its high end.
            let x = if right { 1.5 } else { w as f32 - 1.5 };
            let start = v(x, n as f32 - 1.5 * rise) + normal * 0.26;
            let what = format!("ramp {ramp}, falling {}", if right { "right" } else { "left" });
            let slid = slide(&what, &tiles, (w, n), start, -s * rise.atan(), Vec2::ZERO, normal);
            assert!(slid > 20, "{what}: slid over {slid} steps");
        }
    }
}

/// A box (friction 0) sliding at 3 m/s either way over a row of sixteen half-height blocks (on
/// full cells, and on their own on the ground row): its speed across the surface stays below
/// 0.05 m/s and it does not turn while it crosses the blocks' seams.
#[test]
fn a_box_slides_over_half_blocks_without_a_snag() {
    let w = 16;
    for (rows, under) in [(2usize, Tile::Full), (1, Tile::Empty)] {
        let tiles: Vec<Tile> = (0..w * rows)
            .map(|i| if i / w + 1 < rows { under } else { Tile::HalfBottom })
            .collect();
        let top = (rows - 1) as f32 + 0.5;
        for dir in [1.0f32, -1.0] {
            // Resting on the blocks, a cell before the checked stretch.
            let x = if dir > 0.0 { 1.0 } else { w as f32 - 1.0 };
            let start = v(x, top + 0.25);
            let what = format!("{rows} rows, dir {dir}");
            let slid = slide(
                &what,
                &tiles,
                (w, rows),
                start,
                0.0,
                v(3.0 * dir, 0.0),
                v(0.0, 1.0),
            );
            assert!(slid > 20, "{what}: slid over {slid} steps");
        }
    }
}
