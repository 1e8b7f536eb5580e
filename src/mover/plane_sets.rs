//! The fixed-capacity plane sets of one slide: [`Gathered`], the planes of the obstacles near
//! the mover (the deepest kept); [`SolverSet`], the constraints a step solves (exactly, by
//! trying every candidate point, for up to [`EXACT_SOLVE_PLANES`] planes); and [`Blocked`],
//! the normals that stopped the motion.

use super::options::MAX_MOVER_CONTACTS;
use super::query::{mover_plane, MoverLevel, MoverPlane};
use super::{solve_planes_with_slop, CollisionPlane, Plane};
use crate::geometry::Shape;
use crate::math::{Transform, Vec2};

/// The most obstacles one collision of the mover considers (the deepest are kept).
pub(super) const GATHER_CAPACITY: usize = 12;

/// Capacity of the solver's plane set (each obstacle may add a wall plane); planes beyond it
/// are dropped (the cast still stops the mover at what they stand for).
pub(super) const SOLVER_CAPACITY: usize = 2 * GATHER_CAPACITY;

/// The planes of the obstacles near the mover, the deepest kept.
#[derive(Clone, Copy)]
pub(super) struct Gathered {
    pub(super) planes: [MoverPlane; GATHER_CAPACITY],
    pub(super) count: usize,
}

impl Gathered {
    pub(super) fn collect<L: MoverLevel + ?Sized>(
        level: &L,
        mover: &Shape,
        xf: Transform,
        reach: f32,
    ) -> Gathered {
        let mut g = Gathered::default();
        g.collect_into(level, mover, xf, reach);
        g
    }

    /// [`Gathered::collect`] into this buffer (no fresh one to zero and copy).
    pub(super) fn collect_into<L: MoverLevel + ?Sized>(
        &mut self,
        level: &L,
        mover: &Shape,
        xf: Transform,
        reach: f32,
    ) {
        self.count = 0;
        let aabb = mover.aabb(xf);
        if !aabb.is_valid() {
            return;
        }
        let near = aabb.inflated(reach);
        level.obstacles(near, &mut |o| {
            if o.shape.aabb(o.xf).overlaps(near) {
                if let Some(p) = mover_plane(o, mover, xf, reach) {
                    self.push(p);
                }
            }
            true
        });
    }

    /// Adds a plane; when full, it replaces the shallowest if it is deeper.
    pub(super) fn push(&mut self, p: MoverPlane) {
        if self.count < GATHER_CAPACITY {
            self.planes[self.count] = p;
            self.count += 1;
            return;
        }
        let mut k = 0;
        for i in 1..GATHER_CAPACITY {
            if self.planes[i].plane.offset < self.planes[k].plane.offset {
                k = i;
            }
        }
        if p.plane.offset > self.planes[k].plane.offset {
            self.planes[k] = p;
        }
    }

    pub(super) fn planes(&self) -> &[MoverPlane] {
        &self.planes[..self.count]
    }

    /// The ground among the planes within `reach`: the closest walkable plane, and among
    /// those as close as it (within `tie`) the one facing most nearly up (so the floor wins
    /// over the tilted plane of a flush corner next to the mover).
    pub(super) fn ground(&self, up: Vec2, cos_max: f32, reach: f32, tie: f32) -> Option<MoverPlane> {
        let walkable = || {
            self.planes()
                .iter()
                .filter(move |p| p.separation() <= reach && p.is_walkable(up, cos_max))
        };
        let closest = walkable().map(|p| p.separation()).reduce(f32::min)?;
        walkable()
            .filter(|p| p.separation() <= closest + tie)
            .copied()
            .reduce(|a, b| {
                if b.plane.normal.dot(up) > a.plane.normal.dot(up) {
                    b
                } else {
                    a
                }
            })
    }
}

impl Default for Gathered {
    fn default() -> Self {
        Gathered {
            planes: [MoverPlane::default(); GATHER_CAPACITY],
            count: 0,
        }
    }
}

/// The solver's planes: "the translation `d` satisfies `normal · d ≥ offset`".
pub(super) struct SolverSet {
    pub(super) planes: [CollisionPlane; SOLVER_CAPACITY],
    pub(super) count: usize,
    pub(super) up: Vec2,
    pub(super) cos_max: f32,
    /// The skin every plane's offset includes; dropped when the planes cannot all be met.
    pub(super) skin: f32,
}

impl SolverSet {
    /// Adds the plane `normal · d ≥ offset`, and for a steep surface (facing up, not
    /// walkable) the vertical wall that keeps lateral motion from climbing it.
    pub(super) fn add(&mut self, normal: Vec2, offset: f32) {
        self.push(normal, offset);
        let c = normal.dot(self.up);
        if c > 0.0 && c < self.cos_max {
            let lateral = normal - self.up * c;
            let len = lateral.length();
            if len > 0.0 {
                // Moving laterally by x closes the gap by x·len: the wall allows exactly that.
                let wall = if offset < 0.0 { offset / len } else { 0.0 };
                self.push(lateral * (1.0 / len), wall);
            }
        }
    }

    fn push(&mut self, normal: Vec2, offset: f32) {
        if self.count < SOLVER_CAPACITY {
            self.planes[self.count] = CollisionPlane {
                plane: Plane { normal, offset },
                push_limit: f32::MAX,
                push: 0.0,
                clip_velocity: 1,
            };
            self.count += 1;
        }
    }

    /// The translation nearest `target` that satisfies every plane (to `slop`), with each
    /// plane's `push` set to how far it moved the result (0 when it did not constrain it).
    ///
    /// In 2D the nearest point of an intersection of half-planes is the target itself, its
    /// projection onto one plane, or the meeting point of two: with up to
    /// [`EXACT_SOLVE_PLANES`] planes every candidate is tried and the nearest feasible one
    /// taken — exact, where the iterative [`solve_planes_with_slop`] converges slowly between
    /// nearly parallel planes (a steep slope and its wall). With more planes, or none
    /// feasible (planes that contradict each other), the iterative solver's answer.
    ///
    /// In a gap narrower than two skins the planes contradict each other; then the skin is
    /// given up (every offset less the skin: surfaces apart, not a skin apart) before the
    /// iterative fallback, so the mover is squeezed to the middle, not into a wall.
    pub(super) fn solve(&mut self, target: Vec2, slop: f32) -> Vec2 {
        let skin = self.skin;
        let planes = &mut self.planes[..self.count];
        if planes.len() <= EXACT_SOLVE_PLANES {
            if let Some(d) = solve_relaxed(target, planes, slop, 0.0) {
                return d;
            }
            // The least relaxation that makes the planes consistent (bisection: the mover ends
            // in the middle of a squeeze, not against one side).
            if solve_relaxed(target, planes, slop, skin).is_some() {
                let (mut lo, mut hi) = (0.0f32, skin);
                for _ in 0..12 {
                    let mid = 0.5 * (lo + hi);
                    if exact_solve_shifted(target, planes, slop, mid).is_some() {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                if let Some(d) = solve_relaxed(target, planes, slop, hi) {
                    return d;
                }
            }
        }
        solve_planes_with_slop(target, planes, slop).translation
    }

    /// Records the normals of the planes that pushed in the last solve.
    pub(super) fn record_pushes(&self, blocked: &mut Blocked) {
        for p in &self.planes[..self.count] {
            if p.push > 0.0 {
                blocked.add(p.plane.normal);
            }
        }
    }
}

/// [`exact_solve`] with every plane's offset lowered by `relax`, and the pushes written.
fn solve_relaxed(target: Vec2, planes: &mut [CollisionPlane], slop: f32, relax: f32) -> Option<Vec2> {
    let d = exact_solve_shifted(target, planes, slop, relax)?;
    for p in planes.iter_mut() {
        let n = p.plane.normal;
        let offset = p.plane.offset - relax;
        let constrains = n.dot(target) < offset - slop && n.dot(d) <= offset + slop;
        p.push = if constrains { offset - n.dot(target) } else { 0.0 };
    }
    Some(d)
}

/// [`exact_solve`] with every plane's offset lowered by `relax`.
fn exact_solve_shifted(target: Vec2, planes: &mut [CollisionPlane], slop: f32, relax: f32) -> Option<Vec2> {
    if relax == 0.0 {
        return exact_solve(target, planes, slop);
    }
    for p in planes.iter_mut() {
        p.plane.offset -= relax;
    }
    let d = exact_solve(target, planes, slop);
    for p in planes.iter_mut() {
        p.plane.offset += relax;
    }
    d
}

/// Most planes [`SolverSet::solve`] solves exactly (the candidates grow as the cube).
const EXACT_SOLVE_PLANES: usize = 16;

/// The feasible point nearest `target` among the candidates of [`SolverSet::solve`].
fn exact_solve(target: Vec2, planes: &[CollisionPlane], slop: f32) -> Option<Vec2> {
    // The target must satisfy every plane exactly (a tolerance would let the mover sink into
    // the skin band by it, to be pushed back out next frame: a bob); the computed candidates
    // only to `slop`, for their round-off.
    if planes
        .iter()
        .all(|p| p.plane.normal.dot(target) >= p.plane.offset)
    {
        return Some(target);
    }
    let feasible = |d: Vec2| {
        planes
            .iter()
            .all(|p| p.plane.normal.dot(d) >= p.plane.offset - slop)
    };
    let mut best: Option<(f32, Vec2)> = None;
    let mut consider = |d: Vec2| {
        if d.is_finite() && feasible(d) {
            let dist = (d - target).length_squared();
            if best.is_none_or(|(b, _)| dist < b) {
                best = Some((dist, d));
            }
        }
    };
    for (i, a) in planes.iter().enumerate() {
        let (na, oa) = (a.plane.normal, a.plane.offset);
        let gap = oa - na.dot(target);
        if gap > 0.0 {
            consider(target + na * gap);
        }
        for b in &planes[i + 1..] {
            let (nb, ob) = (b.plane.normal, b.plane.offset);
            let det = na.cross(nb);
            if det.abs() > 1e-6 {
                // Cramer's rule for na · d = oa, nb · d = ob.
                consider(Vec2::new(oa * nb.y - ob * na.y, na.x * ob - nb.x * oa) * (1.0 / det));
            }
        }
    }
    best.map(|(_, d)| d)
}

/// The normals of the surfaces that blocked the motion (pushed in a solve or stopped a cast):
/// the velocity loses its part into each.
pub(super) struct Blocked {
    pub(super) normals: [Vec2; 2 * MAX_MOVER_CONTACTS],
    pub(super) count: usize,
}

impl Blocked {
    pub(super) fn add(&mut self, n: Vec2) {
        if self.normals[..self.count].iter().any(|m| m.dot(n) > 1.0 - 1e-6) {
            return;
        }
        if self.count < self.normals.len() {
            self.normals[self.count] = n;
            self.count += 1;
        }
    }
}
