//! Tile-map outlines checked against the grid itself (no outline code involved in the checks):
//! the even–odd rule over all loops classifies every cell centre, every outline edge separates a
//! solid cell (on its left) from an empty one, and the loops' total length is the number of
//! solid/empty cell edges.
mod common;
use collide2d::*;
use common::Rng;

struct Grid {
    w: usize,
    h: usize,
    cells: Vec<bool>,
}

impl Grid {
    fn solid(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.w
            && (y as usize) < self.h
            && self.cells[y as usize * self.w + x as usize]
    }
}

fn check(g: &Grid, chains: &[Chain]) {
    check_at(g, chains, Vec2::ZERO, 1.0);
}

/// The grid-line index of coordinate `x` on an axis starting at `o`: `x` must be exactly the
/// documented corner `o + (k as f32) * cell` of some `k` in `0..=n`.
fn index(x: f32, o: f32, cell: f32, n: i64) -> i64 {
    let k = ((f64::from(x) - f64::from(o)) / f64::from(cell)).round() as i64;
    let hit = (k - 1..=k + 1).find(|&k| (0..=n).contains(&k) && o + k as f32 * cell == x);
    hit.unwrap_or_else(|| panic!("{x} is not a corner of the grid at {o} step {cell}"))
}

fn check_at(g: &Grid, chains: &[Chain], origin: Vec2, cell: f32) {
    let (w, h) = (g.w as i64, g.h as i64);
    // Unit edges of the outline, each checked; vertical ones bucketed per row for the parity.
    let mut crossings: Vec<Vec<i64>> = vec![Vec::new(); g.h];
    let mut length = 0i64;
    for c in chains {
        assert!(c.is_closed());
        let pts: Vec<(i64, i64)> = c
            .points()
            .iter()
            .map(|p| (index(p.x, origin.x, cell, w), index(p.y, origin.y, cell, h)))
            .collect();
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            let (ax, ay, bx, by) = (a.0, a.1, b.0, b.1);
            assert!((ax == bx) != (ay == by), "diagonal or empty edge {a:?} {b:?}");
            // Consecutive segments turn (collinear runs are merged).
            let c2 = pts[(i + 2) % pts.len()];
            let turn = (bx - ax) * (c2.1 - by) - (by - ay) * (c2.0 - bx);
            assert!(turn != 0, "collinear vertex {b:?}");
            let (dx, dy) = ((bx - ax).signum(), (by - ay).signum());
            let n = (bx - ax).abs() + (by - ay).abs();
            length += n;
            for k in 0..n {
                let (x, y) = (ax + dx * k, ay + dy * k);
                // The cells left and right of the unit edge from (x, y) along (dx, dy).
                let (left, right) = match (dx, dy) {
                    (1, 0) => ((x, y), (x, y - 1)),
                    (-1, 0) => ((x - 1, y - 1), (x - 1, y)),
                    (0, 1) => ((x - 1, y), (x, y)),
                    _ => ((x, y - 1), (x - 1, y - 1)),
                };
                assert!(
                    g.solid(left.0, left.1),
                    "edge at {x},{y} dir {dx},{dy}: left not solid"
                );
                assert!(
                    !g.solid(right.0, right.1),
                    "edge at {x},{y} dir {dx},{dy}: right not empty"
                );
                if dx == 0 {
                    crossings[(y.min(y + dy)) as usize].push(x);
                }
            }
        }
    }
    // Independent count of solid/empty cell edges (the grid border counts as empty).
    let mut expected = 0i64;
    for y in -1..=h {
        for x in -1..=w {
            expected += i64::from(g.solid(x, y) != g.solid(x + 1, y)) * i64::from((0..h).contains(&y));
            expected += i64::from(g.solid(x, y) != g.solid(x, y + 1)) * i64::from((0..w).contains(&x));
        }
    }
    assert_eq!(length, expected, "outline length");
    // Even–odd: a cell centre is inside iff an odd number of vertical edges lie to its right.
    for (y, xs) in crossings.iter_mut().enumerate() {
        xs.sort_unstable();
        for x in 0..g.w {
            let right = xs.len() - xs.partition_point(|&e| e <= x as i64);
            assert_eq!(right % 2 == 1, g.solid(x as i64, y as i64), "cell {x},{y}");
        }
    }
}

#[test]
fn tile_outlines_classify_every_cell() {
    let mut rng = Rng(0x711E);
    let sizes = [
        (1, 1),
        (2, 1),
        (1, 3),
        (3, 3),
        (7, 5),
        (16, 16),
        (64, 48),
        (128, 128),
        (512, 512),
    ];
    for (k, &(w, h)) in sizes.iter().enumerate() {
        for density in [0.0, 0.2, 0.5, 0.8, 1.0] {
            // Noise, plus blobs (regions with holes) on the larger grids.
            let mut cells: Vec<bool> = (0..w * h).map(|_| rng.range(0.0, 1.0) < density).collect();
            if w >= 16 && k % 2 == 0 {
                for y in 0..h {
                    for x in 0..w {
                        let (fx, fy) = (x as f32 / w as f32 - 0.5, y as f32 / h as f32 - 0.5);
                        let r = (fx * fx + fy * fy).sqrt();
                        cells[y * w + x] = (0.15..0.35).contains(&r) ^ (rng.range(0.0, 1.0) < 0.02);
                    }
                }
            }
            let g = Grid { w, h, cells };
            let chains = tile_outlines_from_cells(w, h, &g.cells, 1.0, Vec2::ZERO).unwrap();
            check(&g, &chains);
        }
    }
}

#[test]
fn tile_outline_windings_and_saddles() {
    // A ring: one counter-clockwise outer loop and one clockwise hole.
    let ring: Vec<bool> = (0..9).map(|i| i != 4).collect();
    let chains = tile_outlines_from_cells(3, 3, &ring, 1.0, Vec2::ZERO).unwrap();
    assert_eq!(chains.len(), 2);
    let mut areas: Vec<f32> = chains.iter().map(|c| c.signed_area()).collect();
    areas.sort_by(f32::total_cmp);
    assert_eq!(areas, vec![-1.0, 9.0]);
    // Two cells touching at a corner: two separate squares.
    let diag = [true, false, false, true];
    let chains = tile_outlines_from_cells(2, 2, &diag, 1.0, Vec2::ZERO).unwrap();
    assert_eq!(chains.len(), 2);
    assert!(chains
        .iter()
        .all(|c| c.points().len() == 4 && c.signed_area() == 1.0));
    // Cell size and origin place the outline; a full 1000 × 1000 map is one square.
    let chains = tile_outlines(1000, 1000, 0.5, Vec2::new(-10.0, 5.0), |_, _| true).unwrap();
    assert_eq!(chains.len(), 1);
    let mut pts = chains[0].points().to_vec();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    assert_eq!(
        pts,
        vec![
            Vec2::new(-10.0, 5.0),
            Vec2::new(-10.0, 505.0),
            Vec2::new(490.0, 5.0),
            Vec2::new(490.0, 505.0)
        ]
    );
    // Bad input: clear errors.
    assert_eq!(
        tile_outlines_from_cells(2, 2, &[true; 3], 1.0, Vec2::ZERO).err(),
        Some(GeometryError::InvalidGrid)
    );
    assert_eq!(
        tile_outlines(2, 2, 0.0, Vec2::ZERO, |_, _| true).err(),
        Some(GeometryError::InvalidGrid)
    );
    assert_eq!(
        tile_outlines(2, 2, f32::NAN, Vec2::ZERO, |_, _| true).err(),
        Some(GeometryError::InvalidGrid)
    );
    assert_eq!(
        tile_outlines(2, 2, 1e38, Vec2::ZERO, |_, _| true).err(),
        Some(GeometryError::OutOfRange)
    );
    assert_eq!(
        tile_outlines(usize::MAX, 2, 1.0, Vec2::ZERO, |_, _| true).err(),
        Some(GeometryError::InvalidGrid)
    );
    assert!(tile_outlines(0, 5, 1.0, Vec2::ZERO, |_, _| true)
        .unwrap()
        .is_empty());
}

/// Random maps far from the origin, checked cell by cell like the others: corners are the
/// documented floats of their grid lines, or the map is refused with `OutOfRange` exactly when
/// two neighbouring grid lines round to the same float.
#[test]
fn tile_outlines_far_from_the_origin() {
    let mut rng = Rng(0xFA12);
    let origins = [1e3f32, 1e5, 1.2e6, 4e6, 8e6, 1e7, 1.6777e7, 3e7];
    let cells = [1.0f32, 0.5, 0.25, 2.0, 0.1, 3.0];
    for &o in &origins {
        for &cell in &cells {
            for sign in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
                let origin = Vec2::new(sign.0 * o, sign.1 * o * 0.75);
                let (w, h) = (1 + rng.index(64), 1 + rng.index(64));
                let density = rng.range(0.2, 0.9);
                let g = Grid {
                    w,
                    h,
                    cells: (0..w * h).map(|_| rng.range(0.0, 1.0) < density).collect(),
                };
                let collide =
                    |o: f32, n: usize| (0..n).any(|k| o + k as f32 * cell == o + (k + 1) as f32 * cell);
                let made = tile_outlines_from_cells(w, h, &g.cells, cell, origin);
                if collide(origin.x, w) || collide(origin.y, h) {
                    assert_eq!(made.err(), Some(GeometryError::OutOfRange), "{origin:?} {cell}");
                } else {
                    let chains = made.unwrap_or_else(|e| panic!("{origin:?} {cell}: {e:?}"));
                    check_at(&g, &chains, origin, cell);
                    // Exact corners (integer cells up to 1.6e7): the area is the cell count.
                    if cell >= 1.0 && o < 1.6e7 {
                        let area: f64 = chains.iter().map(|c| loop_area(c.points())).sum();
                        let count = g.cells.iter().filter(|&&c| c).count() as f64;
                        assert_eq!(area, count * f64::from(cell * cell), "{origin:?} {cell}");
                    }
                }
            }
        }
    }
}

fn loop_area(pts: &[Vec2]) -> f64 {
    let o = pts[0];
    let mut twice = 0.0;
    for i in 0..pts.len() {
        let (a, b) = (pts[i] - o, pts[(i + 1) % pts.len()] - o);
        twice += f64::from(a.x) * f64::from(b.y) - f64::from(a.y) * f64::from(b.x);
    }
    0.5 * twice
}

/// Regression: `SSSS / SS..` with its origin at x = 1.2e6 (cell size 1) came out as the
/// triangle (4, 0), (0, 2), (0, 0), area 4, because the chain welder merged corners closer than
/// 1e-6 of their coordinates (1.2 units there).
#[test]
fn far_tile_map_keeps_its_corners() {
    // Row 0 (bottom) is `SS..`, row 1 is `SSSS`.
    let cells = [true, true, false, false, true, true, true, true];
    let origin = Vec2::new(1.2e6, 0.0);
    let chains = tile_outlines_from_cells(4, 2, &cells, 1.0, origin).unwrap();
    assert_eq!(chains.len(), 1);
    assert_eq!(chains[0].points().len(), 6);
    assert_eq!(loop_area(chains[0].points()), 6.0);
    check_at(
        &Grid {
            w: 4,
            h: 2,
            cells: cells.to_vec(),
        },
        &chains,
        origin,
        1.0,
    );
}

/// Regression: a random 64 × 64 map at (1e6, 1e6) failed with `TooFewPoints` (a small loop
/// welded away).
#[test]
fn random_map_at_a_million() {
    let mut rng = Rng(0x1E6);
    let (w, h) = (64, 64);
    let g = Grid {
        w,
        h,
        cells: (0..w * h).map(|_| rng.range(0.0, 1.0) < 0.5).collect(),
    };
    let origin = Vec2::new(1e6, 1e6);
    let chains = tile_outlines_from_cells(w, h, &g.cells, 1.0, origin).unwrap();
    check_at(&g, &chains, origin, 1.0);
    // Grid lines that round together: refused, not merged.
    assert_eq!(
        tile_outlines_from_cells(w, h, &g.cells, 0.5, Vec2::new(1.6777e7, 0.0)).err(),
        Some(GeometryError::OutOfRange)
    );
    assert_eq!(
        tile_outlines(4, 4, 1e-30, Vec2::ZERO, |_, _| true).err(),
        Some(GeometryError::OutOfRange)
    );
}
