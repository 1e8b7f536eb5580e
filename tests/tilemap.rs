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
    let (w, h) = (g.w as i64, g.h as i64);
    // Unit edges of the outline, each checked; vertical ones bucketed per row for the parity.
    let mut crossings: Vec<Vec<i64>> = vec![Vec::new(); g.h];
    let mut length = 0i64;
    for c in chains {
        assert!(c.is_closed());
        let pts = c.points();
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            assert!(a.x.fract() == 0.0 && a.y.fract() == 0.0, "{a:?}");
            let (ax, ay, bx, by) = (a.x as i64, a.y as i64, b.x as i64, b.y as i64);
            assert!(ax == bx || ay == by, "diagonal edge {a:?} {b:?}");
            // Consecutive segments turn (collinear runs are merged).
            let c2 = pts[(i + 2) % pts.len()];
            assert!((b - a).cross(c2 - b) != 0.0, "collinear vertex {b:?}");
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
