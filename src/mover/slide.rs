//! `move_and_slide`: one call that moves a kinematic mover of any convex shape through a level
//! (the algorithm is described in the [`mover`](crate::mover) module docs).

use super::query::{
    cast_mover, collide_mover, mover_plane, obstacle_hit, MoverHit, MoverLevel, MoverPlane, OneWayLevel,
};
use super::{solve_planes_with_slop, CollisionPlane, Plane};
use crate::cast::{shape_cast, CastState};
use crate::distance::ShapeProxy;
use crate::fmath;
use crate::geometry::{Circle, Shape};
use crate::math::{Transform, Vec2};

/// The most contacts a [`MoveResult`] reports.
pub const MAX_MOVER_CONTACTS: usize = 8;

/// The most obstacles one collision of the mover considers (the deepest are kept).
const GATHER_CAPACITY: usize = 12;

/// Capacity of the solver's plane set (each obstacle may add a wall plane); planes beyond it
/// are dropped (the cast still stops the mover at what they stand for).
const SOLVER_CAPACITY: usize = 2 * GATHER_CAPACITY;

/// Rounds of the end check per iteration.
const END_CHECK_ROUNDS: usize = 3;

/// Most collide–solve–cast iterations one [`move_and_slide`] call makes, whatever
/// [`MoveOptions::max_iterations`] asks: each iteration queries the level, so the cap bounds
/// a call's work.
pub const MAX_MOVE_ITERATIONS: u32 = 32;

/// Longest translation (m) [`move_and_slide`] takes: a longer one is invalid input (the mover
/// stays where it is). It equals the World's extent (`world::limits::MAX_COORDINATE`). A cast
/// resolves where it stops to about 1e-7 of its path (`f32`): keep a call's translation below
/// `skin / 4 × 1e7` (25 km for the default skin) for the skin to hold exactly.
pub const MAX_MOVE_TRANSLATION: f32 = 1.0e6;

/// Whether the contact normals span `up` (unit, or zero for top-down movement): `up` is a
/// non-negative combination of two of them (it lies between them, the narrower way round), or
/// along one. Then no motion with a downward part keeps clear of every surface: together they
/// hold the mover against gravity.
fn holds_against_gravity(up: Vec2, contacts: &[MoverPlane]) -> bool {
    if up == Vec2::ZERO {
        return false;
    }
    let normals = || contacts.iter().map(|c| c.plane.normal);
    normals().any(|n| n.dot(up) >= 1.0 - 1e-6)
        || normals().any(|a| normals().any(|b| a.cross(b) > 0.0 && a.cross(up) >= 0.0 && up.cross(b) >= 0.0))
}

/// Options of [`move_and_slide`]. Lengths are in the level's units; the defaults suit a
/// mover about 1 unit tall (a metre-scale character) and are named in each field.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveOptions {
    /// Clearance the mover keeps from every surface (default 0.01). The mover rests this far
    /// from what it touches, and no move brings it closer than a quarter of it. Scale it with
    /// the mover (about 1 % of its size), and keep it above 64 float spacings of the
    /// coordinates the mover moves at (at 10 000 a spacing is 0.001: a skin of 0.064 or more),
    /// or round-off decides where it rests.
    pub skin: f32,
    /// Most collide–solve–cast iterations per call (default 5, as Box2D's mover; 0 counts as
    /// 1, and more than [`MAX_MOVE_ITERATIONS`] as that many).
    pub max_iterations: u32,
    /// The world's up direction (default `(0, 1)`), normalised on use; ground faces up.
    /// `Vec2::ZERO` is top-down movement (no gravity direction): no ground, no slopes, no
    /// snapping, every surface a wall to slide along, as Box2D's mover.
    pub up: Vec2,
    /// Steepest walkable slope, radians from horizontal (default π/4). Steeper surfaces facing
    /// up are not climbed.
    pub max_slope: f32,
    /// How far down the mover is pulled onto walkable ground after walking off it, e.g. down a
    /// step or onto a steeper stretch of slope (default 0: no snapping). Only when it stood on
    /// ground at the start and is not moving up (a jump is never snapped back).
    pub ground_snap: f32,
    /// Whether the mover slides down steep slopes under the downward part of its translation
    /// (default `true`); when `false` it stays put on them (it still cannot climb them).
    pub slide_on_steep: bool,
    /// Duration of the frame in seconds, for moving platforms (default 0: no carry). When
    /// positive, the velocity of the ground under the mover at the start times `time_step` is
    /// added to the translation. Call `move_and_slide` after the level has moved for the frame.
    pub time_step: f32,
    /// Tallest step the mover walks up without being told to jump (default 0: no stepping;
    /// rapier's autostep, Unity's step offset). A mover standing on ground and walking (not
    /// moving up) into something that holds it back tries, in the same call: rise by up to
    /// this height (less under a low ceiling), move on laterally at that height, and come back
    /// down onto what it passed over. It keeps that path when it lands on walkable ground at
    /// least a hundredth of the skin higher than it started and got further along its walk
    /// than the plain move did; otherwise the plain move stands. So a step taller than this,
    /// a top steeper than `max_slope`, or a top without room for the mover (a ceiling or wall
    /// over it) is not climbed. Walking down steps is `ground_snap`'s (set it at least this
    /// high to walk down the stairs the mover walks up).
    pub max_step_height: f32,
}

impl Default for MoveOptions {
    fn default() -> Self {
        MoveOptions {
            skin: 0.01,
            max_iterations: 5,
            up: Vec2::new(0.0, 1.0),
            max_slope: core::f32::consts::FRAC_PI_4,
            ground_snap: 0.0,
            slide_on_steep: true,
            time_step: 0.0,
            max_step_height: 0.0,
        }
    }
}

/// Result of [`move_and_slide`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveResult {
    /// The mover's new world position (its transform's translation; the rotation is unchanged).
    pub position: Vec2,
    /// The velocity passed in, with its part into every surface touched at the end removed
    /// (ground: only the downward part).
    pub velocity: Vec2,
    /// Whether the mover ends on walkable ground (within the skin band).
    pub on_ground: bool,
    /// Whether the surfaces the mover touches at the end hold it against gravity together:
    /// on walkable ground, or wedged between surfaces none of which is walkable alone (a
    /// steep V, a ball and a crate) whose normals span the up direction (`up` lies between two
    /// of them, or along one). A game may allow a jump when supported. Always `false` in
    /// top-down movement (`up = 0`).
    pub supported: bool,
    /// The ground (when `on_ground`): its normal, contact point, velocity and user data.
    pub ground: MoverPlane,
    /// The surfaces the mover touches at the end (separation at most the skin, within 1 %),
    /// and its ground, closest first.
    pub contacts: [MoverPlane; MAX_MOVER_CONTACTS],
    /// Number of valid entries of `contacts`.
    pub contact_count: u32,
    /// Iterations used (the auto-step's moves included).
    pub iterations: u32,
    /// Height the mover climbed by auto-step in this call (see [`MoveOptions::max_step_height`];
    /// 0 when it did not step): a game can smooth its camera over it.
    pub stepped_up: f32,
}

impl MoveResult {
    /// The valid contacts.
    #[must_use]
    pub fn contacts(&self) -> &[MoverPlane] {
        &self.contacts[..(self.contact_count as usize).min(MAX_MOVER_CONTACTS)]
    }

    /// Draws the mover planes (debug drawing), in world space: for each contact, the plane as
    /// a segment through its point along the surface, `normal_length` to each side
    /// ([`Color::CAST`](crate::draw::Color::CAST), the ground's
    /// [`Color::STATIC`](crate::draw::Color::STATIC)), the point
    /// ([`Color::CONTACT`](crate::draw::Color::CONTACT)) and the normal from the point toward
    /// the mover, `normal_length` long ([`Color::NORMAL`](crate::draw::Color::NORMAL)).
    pub fn draw(&self, d: &mut (impl crate::draw::DebugDraw + ?Sized), normal_length: f32) {
        use crate::draw::Color;
        for c in self.contacts() {
            let n = c.plane.normal;
            let along = n.left_perp() * normal_length;
            let ground = self.on_ground && c.point == self.ground.point && n == self.ground.plane.normal;
            let color = if ground { Color::STATIC } else { Color::CAST };
            d.segment(c.point - along, c.point + along, color);
            d.point(c.point, 5.0, Color::CONTACT);
            d.segment(c.point, c.point + n * normal_length, Color::NORMAL);
        }
    }
}

/// The planes of the obstacles near the mover, the deepest kept.
#[derive(Clone, Copy)]
struct Gathered {
    planes: [MoverPlane; GATHER_CAPACITY],
    count: usize,
}

impl Gathered {
    fn collect<L: MoverLevel + ?Sized>(level: &L, mover: &Shape, xf: Transform, reach: f32) -> Gathered {
        let mut g = Gathered::default();
        g.collect_into(level, mover, xf, reach);
        g
    }

    /// [`Gathered::collect`] into this buffer (no fresh one to zero and copy).
    fn collect_into<L: MoverLevel + ?Sized>(&mut self, level: &L, mover: &Shape, xf: Transform, reach: f32) {
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
    fn push(&mut self, p: MoverPlane) {
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

    fn planes(&self) -> &[MoverPlane] {
        &self.planes[..self.count]
    }

    /// The ground among the planes within `reach`: the closest walkable plane, and among
    /// those as close as it (within `tie`) the one facing most nearly up (so the floor wins
    /// over the tilted plane of a flush corner next to the mover).
    fn ground(&self, up: Vec2, cos_max: f32, reach: f32, tie: f32) -> Option<MoverPlane> {
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

/// Steps 3 and 4 of the algorithm in one pass over the obstacles near the move (the mover at
/// `xf` moved by `delta`): the planes at the end, a plane added to `set` for each obstacle
/// the mover would come within the skin of (less `tolerance`) there, and the first obstacle
/// the move runs into ([`cast_mover`] with half the skin).
///
/// The added plane is the one the mover meets on its way — the feature normal where a cast
/// along `delta` first comes within the skin, allowing the motion up to there — so an end deep
/// inside an obstacle never pushes toward its far side. An obstacle the cast does not meet
/// adds nothing: it is a chain segment passed from behind, or one the mover starts within the
/// skin of, whose plane from the start is in the set already. Returns the planes at the end,
/// whether any plane was added, and the first hit.
#[allow(clippy::too_many_arguments)]
fn sweep<L: MoverLevel + ?Sized>(
    level: &L,
    mover: &Shape,
    xf: Transform,
    delta: Vec2,
    skin: f32,
    tolerance: f32,
    set: &mut SolverSet,
    end_planes: &mut Gathered,
) -> (bool, Option<MoverHit>) {
    let end = Transform {
        p: xf.p + delta,
        q: xf.q,
    };
    let reach = 2.0 * skin;
    end_planes.count = 0;
    let mut added = false;
    let mut first: Option<MoverHit> = None;
    let (start_box, end_box) = (mover.aabb(xf), mover.aabb(end));
    if !start_box.is_valid() || !end_box.is_valid() {
        return (false, None);
    }
    let near_end = end_box.inflated(reach);
    let swept = start_box.union(end_box);
    let cast_box = swept.inflated(0.5 * skin);
    level.obstacles(swept.inflated(reach), &mut |o| {
        // The exact boxes first: a level's candidates come from fattened boxes.
        let bounds = o.shape.aabb(o.xf);
        if bounds.overlaps(cast_box) {
            if let Some(h) = obstacle_hit(o, mover, xf, delta, 0.5 * skin) {
                if first.is_none_or(|b| h.fraction < b.fraction) {
                    first = Some(h);
                }
                // The move runs into it, so it is inside the skin band at the end too: its
                // plane from the hit, where the mover is half a skin from the face met.
                let n = h.normal;
                set.add(n, n.dot(delta) * h.fraction + 0.5 * skin);
                added = true;
                return true;
            }
        }
        if !bounds.overlaps(near_end) {
            return true;
        }
        let Some(p) = mover_plane(o, mover, end, reach) else {
            return true;
        };
        end_planes.push(p);
        if p.separation() < skin - tolerance {
            let out = shape_cast(mover, xf, delta, o.shape, o.xf, Vec2::ZERO, skin);
            match out.state {
                CastState::Hit => {
                    let n = -out.normal;
                    set.add(n, n.dot(delta) * out.fraction);
                    added = true;
                }
                CastState::Failed => {
                    let n = p.plane.normal;
                    set.add(n, skin - p.separation() + n.dot(delta));
                    added = true;
                }
                // Not met on the way: a chain segment passed from behind, or one the mover
                // starts within the skin of (its plane from the start is in the set).
                _ => {}
            }
        }
        true
    });
    (added, first)
}

/// The solver's planes: "the translation `d` satisfies `normal · d ≥ offset`".
struct SolverSet {
    planes: [CollisionPlane; SOLVER_CAPACITY],
    count: usize,
    up: Vec2,
    cos_max: f32,
    /// The skin every plane's offset includes; dropped when the planes cannot all be met.
    skin: f32,
}

impl SolverSet {
    /// Adds the plane `normal · d ≥ offset`, and for a steep surface (facing up, not
    /// walkable) the vertical wall that keeps lateral motion from climbing it.
    fn add(&mut self, normal: Vec2, offset: f32) {
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
    fn solve(&mut self, target: Vec2, slop: f32) -> Vec2 {
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
    fn record_pushes(&self, blocked: &mut Blocked) {
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
struct Blocked {
    normals: [Vec2; 2 * MAX_MOVER_CONTACTS],
    count: usize,
}

impl Blocked {
    fn add(&mut self, n: Vec2) {
        if self.normals[..self.count].iter().any(|m| m.dot(n) > 1.0 - 1e-6) {
            return;
        }
        if self.count < self.normals.len() {
            self.normals[self.count] = n;
            self.count += 1;
        }
    }
}

/// Moves `mover` (at world transform `xf`) by up to `translation` through `level`, sliding
/// along what it touches, and reports where it ended, its velocity (`velocity` with the
/// blocked parts removed), its ground and its contacts. See the [module docs](crate::mover) for the
/// algorithm and [`MoveOptions`] for the choices.
///
/// Chain segments are one-way platforms (see [One-way platforms](crate::mover#one-way-platforms)):
/// one the mover has any part behind at `xf` (over the segment's length) is passed for the
/// whole call — no plane, push-out, ground or hit from it, so a jump up through it is never
/// boosted nor on ground inside it — and one the mover is wholly in front of stops it only
/// when it comes down onto the front face, where it lands.
///
/// Guarantees: the mover never ends closer than a quarter of the skin to a surface it did not start
/// penetrating (nor passes through), never passes through an obstacle at any speed (the move is a cast), and never
/// moves further than `translation` plus the push out of penetration and the carry of a moving
/// platform. A mover that starts penetrating is pushed straight out to the skin in one call.
///
/// Invalid input (a non-finite or invalid transform, translation or velocity, a translation
/// longer than [`MAX_MOVE_TRANSLATION`], an invalid mover shape, a non-positive or non-finite
/// skin) leaves the mover where it is: the result has `position = xf.p`, the velocity zeroed
/// when non-finite, and no contacts. At most [`MAX_MOVE_ITERATIONS`] iterations run per move
/// (an auto-step adds two casts and two moves).
pub fn move_and_slide<L: MoverLevel + ?Sized>(
    level: &L,
    mover: &Shape,
    xf: Transform,
    translation: Vec2,
    velocity: Vec2,
    opts: &MoveOptions,
) -> MoveResult {
    let (plain, walking) = slide(level, mover, xf, translation, velocity, opts);
    if walking {
        if let Some(stepped) = step_up(level, mover, xf, translation, velocity, opts, &plain) {
            return stepped;
        }
    }
    plain
}

/// The auto-step of [`MoveOptions::max_step_height`] after the plain move `plain` of a mover
/// that stood on ground at `xf`: rise, move on laterally, come down; `None` when that does not
/// land it on walkable ground higher up and further along than `plain`.
fn step_up<L: MoverLevel + ?Sized>(
    level: &L,
    mover: &Shape,
    xf: Transform,
    translation: Vec2,
    velocity: Vec2,
    opts: &MoveOptions,
    plain: &MoveResult,
) -> Option<MoveResult> {
    let height = opts.max_step_height;
    let up = opts.up.normalize_or_zero();
    if !(height > 0.0 && height.is_finite()) || up == Vec2::ZERO || translation.dot(up) > 0.0 {
        return None;
    }
    let skin = opts.skin;
    let tolerance = 1e-2 * skin;
    let lateral = translation - up * translation.dot(up);
    let length = lateral.length();
    // A walk shorter than the skin is not held back by anything worth stepping over.
    if length <= skin {
        return None;
    }
    let along = lateral * (1.0 / length);
    let progress = (plain.position - xf.p).dot(along);
    if progress >= length - tolerance {
        return None;
    }
    // Rising by the whole height may leave no room further on (a ceiling over the step): then
    // half and a quarter of it are tried.
    [height, 0.5 * height, 0.25 * height]
        .into_iter()
        .find_map(|h| step_at(level, mover, xf, lateral, velocity, opts, plain, h))
}

/// One try of [`step_up`], rising by up to `height`.
#[allow(clippy::too_many_arguments)]
fn step_at<L: MoverLevel + ?Sized>(
    level: &L,
    mover: &Shape,
    xf: Transform,
    lateral: Vec2,
    velocity: Vec2,
    opts: &MoveOptions,
    plain: &MoveResult,
    height: f32,
) -> Option<MoveResult> {
    let up = opts.up.normalize_or_zero();
    let skin = opts.skin;
    let tolerance = 1e-2 * skin;
    let length = lateral.length();
    let along = lateral * (1.0 / length);
    let progress = (plain.position - xf.p).dot(along);
    let at = |p: Vec2| Transform { p, q: xf.q };
    // Rise (a ceiling lowers the rise).
    let rise = cast_mover(level, mover, xf, up * height, skin).map_or(height, |h| height * h.fraction);
    if rise <= tolerance {
        return None;
    }
    // Across at that height: a move in the air (no ground, snap, carry or stepping).
    let air = MoveOptions {
        ground_snap: 0.0,
        time_step: 0.0,
        max_step_height: 0.0,
        ..*opts
    };
    let (across, _) = slide(level, mover, at(xf.p + up * rise), lateral, velocity, &air);
    // It must get further than the plain move, and not by sliding up over what it met (a
    // round part riding up a corner would climb more than the height).
    if (across.position - xf.p).dot(along) <= progress + tolerance
        || (across.position - xf.p).dot(up) > rise + tolerance
    {
        return None;
    }
    // Down onto the top of what it passed over, which must be walkable ground above the start.
    let cos_max = fmath::sin_cos(opts.max_slope.clamp(0.0, core::f32::consts::FRAC_PI_2)).1;
    let drop = (across.position - xf.p).dot(up);
    let hit = cast_mover(level, mover, at(across.position), up * -drop, skin)?;
    let landed = across.position - up * (drop * hit.fraction);
    let proxy = ShapeProxy::from_shape(mover);
    let lowest = proxy.points()[proxy.support(-xf.q.inv_rotate(up))];
    let bottom_at = |p: Vec2| at(p).apply(lowest).dot(up) - proxy.radius;
    // The top it lands on, as a height along `up`. A round mover coming down on the top
    // corner of the step, short of its top, meets the corner's normal, steep: then the top
    // itself is looked at, with a small circle dropped just past the corner; it must be
    // walkable and level with the corner. (Contact points lie about the cast's stopping
    // distance off the surface.)
    let on_corner = hit.normal.dot(up) < cos_max;
    let top = if on_corner {
        if !(hit.normal.dot(up) > 0.0 && hit.normal.dot(along) < 0.0) {
            return None;
        }
        let probe = Shape::Circle(Circle {
            center: Vec2::ZERO,
            radius: 0.25 * skin,
        });
        let from = hit.point + along * skin + up * (2.0 * skin);
        let t = cast_mover(level, &probe, at(from), up * (-4.0 * skin), 0.25 * skin)?;
        if t.normal.dot(up) < cos_max || !(t.fraction > 0.25 && t.fraction < 0.75) {
            return None;
        }
        t.point.dot(up) - 0.25 * skin
    } else {
        hit.point.dot(up) - skin
    };
    // Room for the mover on the top: raised to the top of the skin band over it where it
    // landed (the top is known to about a skin), it is clear of everything by a quarter of the
    // skin, and stays so walking on by half its width.
    let raised = landed + up * (top + 2.0 * skin - bottom_at(landed)).max(0.0);
    let mut room = true;
    collide_mover(level, mover, at(raised), 0.0, |p| {
        room = p.separation() >= 0.25 * skin;
        room
    });
    let front = proxy.points()[proxy.support(xf.q.inv_rotate(along))];
    let half_width = (at(raised).apply(front) - raised).dot(along) + proxy.radius;
    if !room
        || cast_mover(level, mover, at(raised), along * half_width, 0.25 * skin)
            .is_some_and(|h| h.fraction < 1.0)
    {
        return None;
    }
    let climbed = (landed - xf.p).dot(up);
    // The top is at most the step height above what the mover stood on (its lowest point at
    // the start, a skin off it), so a mover resting part-way up a corner never ratchets higher.
    if climbed <= tolerance || top - (bottom_at(xf.p) - skin) > opts.max_step_height + 0.5 * skin {
        return None;
    }
    // Standing there: the report of a move of nothing (ground, contacts, the velocity clipped).
    let (mut r, _) = slide(level, mover, at(landed), Vec2::ZERO, across.velocity, &air);
    if !r.on_ground {
        if !on_corner {
            return None;
        }
        // Resting on the corner of a walkable top: on ground, the corner its ground (the next
        // walk steps on from there).
        r.on_ground = true;
        r.supported = true;
        r.ground = r.contacts().first().copied().unwrap_or_default();
    }
    r.iterations += plain.iterations + across.iterations;
    r.stepped_up = (r.position - xf.p).dot(up);
    Some(r)
}

/// The move of [`move_and_slide`] without the auto-step; also says whether the mover stood on
/// walkable ground at `xf` and is walking (not moving up), when an auto-step may follow.
fn slide<L: MoverLevel + ?Sized>(
    level: &L,
    mover: &Shape,
    xf: Transform,
    translation: Vec2,
    velocity: Vec2,
    opts: &MoveOptions,
) -> (MoveResult, bool) {
    let mut result = MoveResult {
        position: xf.p,
        velocity: if velocity.is_finite() {
            velocity
        } else {
            Vec2::ZERO
        },
        ..MoveResult::default()
    };
    let skin = opts.skin;
    let up = opts.up.normalize_or_zero();
    if !xf.is_valid()
        || !translation.is_finite()
        || !(translation.length() <= MAX_MOVE_TRANSLATION)
        || !velocity.is_finite()
        || !(skin > 0.0)
        || !skin.is_finite()
        || !opts.up.is_finite()
        || !mover.aabb(xf).is_valid()
    {
        return (result, false);
    }
    // One-way platforms: a chain segment the mover starts behind anywhere is passed.
    let level = &OneWayLevel {
        level,
        mover,
        start: xf,
        time_step: opts.time_step,
    };
    let max_slope = if opts.max_slope.is_finite() {
        opts.max_slope.clamp(0.0, core::f32::consts::FRAC_PI_2)
    } else {
        core::f32::consts::FRAC_PI_4
    };
    // Top-down (no up): nothing is ground, nothing is steep.
    let cos_max = if up == Vec2::ZERO {
        f32::INFINITY
    } else {
        fmath::sin_cos(max_slope).1
    };
    let reach = 2.0 * skin;
    let snap = if opts.ground_snap > 0.0 && opts.ground_snap.is_finite() {
        opts.ground_snap
    } else {
        0.0
    };
    let slop = 1e-3 * skin;
    let tolerance = 1e-2 * skin;
    let at = |p: Vec2| Transform { p, q: xf.q };

    // 1. Ground and intent.
    let mut pos = xf.p;
    // Two plane buffers: the planes where the mover is (`bufs[cur]`) and the end check's.
    let mut bufs = [
        Gathered::collect(level, mover, at(pos), reach.max(skin + snap)),
        Gathered::default(),
    ];
    let mut cur = 0;
    let lateral = translation - up * translation.dot(up);
    // Walking: not moving up, and standing within the skin band on walkable ground or on an
    // edge or corner ahead that faces up (a round mover resting on the top corner of a step it
    // is climbing). An auto-step may follow the move.
    let walking = up != Vec2::ZERO
        && translation.dot(up) <= 0.0
        && starts_walking(bufs[0].planes(), up, cos_max, reach, lateral);
    let ground0 = bufs[cur].ground(up, cos_max, reach.max(skin + snap), tolerance);
    let mut desired = translation;
    if translation.dot(up) <= 0.0 {
        if let Some(g) = ground0 {
            let n = g.plane.normal;
            desired = lateral - up * (n.dot(lateral) / n.dot(up));
        } else if !opts.slide_on_steep
            && bufs[cur]
                .planes()
                .iter()
                .any(|p| p.separation() <= reach && p.plane.normal.dot(up) > 0.0)
        {
            desired = lateral;
        }
    }
    if let Some(g) = ground0 {
        if opts.time_step > 0.0 && opts.time_step.is_finite() && g.velocity.is_finite() {
            desired += g.velocity * opts.time_step;
        }
    }
    let mut set = SolverSet {
        planes: [CollisionPlane::default(); SOLVER_CAPACITY],
        count: 0,
        up,
        cos_max,
        skin,
    };
    // The push out of whatever the mover starts inside the skin band of: the shortest
    // translation that meets every such plane (in a V corner it is longer than the push out of
    // either arm alone, so it is solved for the planes together, not taken per plane). It
    // bounds the path, so it is an upper bound; the moves below are still solved and cast.
    let mut push_out = bufs[cur]
        .planes()
        .iter()
        .map(|p| skin - p.separation())
        .fold(0.0f32, f32::max);
    for p in bufs[cur].planes() {
        if p.separation() < skin - tolerance {
            set.add(p.plane.normal, skin - p.separation());
        }
    }
    // Pushed out of one obstacle the mover may be inside the skin band of another (an arm of
    // a V corner it did not reach at the start): the planes where the push ends join the set,
    // for up to END_CHECK_ROUNDS rounds.
    if set.count > 0 {
        let mut d = set.solve(Vec2::ZERO, slop);
        let end = &mut bufs[1];
        for _ in 0..END_CHECK_ROUNDS {
            if !d.is_finite() {
                break;
            }
            push_out = push_out.max(d.length());
            end.collect_into(level, mover, at(pos + d), reach);
            let before = set.count;
            for p in end.planes() {
                if p.separation() < skin - tolerance {
                    set.add(p.plane.normal, skin - p.separation() + p.plane.normal.dot(d));
                }
            }
            if set.count == before {
                break;
            }
            d = set.solve(Vec2::ZERO, slop);
        }
    }
    // Every iteration aims at the same target (Box2D's loop: after a stop, or past the end of
    // a face it slid along, the mover goes on toward it), but the path is never longer than
    // the desired translation plus the push out: a move that would go round a corner beyond
    // that is cut short.
    let target = pos + desired;
    let mut budget = desired.length() + push_out;

    // 2–4. Solve, verify at the end, cast.
    let mut iterations = 0;
    let mut blocked = Blocked {
        normals: [Vec2::ZERO; 2 * MAX_MOVER_CONTACTS],
        count: 0,
    };
    while iterations < opts.max_iterations.clamp(1, MAX_MOVE_ITERATIONS) {
        iterations += 1;
        set.count = 0;
        // Obstacles the mover is inside the skin band of push it out. One it rests against
        // (at the skin, within the tolerance) is left to the end check: as a plane it would be
        // linearised here, and a corner flush with the floor, a hair from touching, would tilt
        // the mover up as it walks over it.
        for p in bufs[cur].planes() {
            if p.separation() < skin - tolerance {
                set.add(p.plane.normal, skin - p.separation());
            }
        }
        let remaining = target - pos;
        let clamp = |d: Vec2| {
            let length = d.length();
            if length > budget {
                d * (budget / length)
            } else {
                d
            }
        };
        let mut delta = clamp(set.solve(remaining, slop));
        let (here, end) = if cur == 0 {
            let (a, b) = bufs.split_at_mut(1);
            (&mut a[0], &mut b[0])
        } else {
            let (a, b) = bufs.split_at_mut(1);
            (&mut b[0], &mut a[0])
        };
        let mut hit;
        let mut rounds = 0;
        loop {
            let added;
            (added, hit) = sweep(level, mover, at(pos), delta, skin, tolerance, &mut set, end);
            if !added || rounds == END_CHECK_ROUNDS {
                break;
            }
            delta = clamp(set.solve(remaining, slop));
            rounds += 1;
        }
        set.record_pushes(&mut blocked);
        match hit {
            None => {
                pos += delta;
                budget -= delta.length();
                // Done when nothing held the step back (it reached the target, or the budget
                // ran out), it was too short to matter, or what held it back still does (the
                // surfaces it rests against at the end leave nothing of the rest of the way);
                // else the plane that held it ended (it slid past the end of a face) or turned
                // (a slope after a corner): go on from here.
                let rest = target - pos;
                let still_held = || {
                    // What is left of the rest of the way once the surfaces the mover rests
                    // against take their part (twice round, for a corner of two): less than a
                    // skin of progress left means held.
                    let mut r = rest;
                    for _ in 0..2 {
                        for p in end.planes() {
                            let into = p.plane.normal.dot(r);
                            if p.separation() <= skin + tolerance && into < 0.0 {
                                r -= p.plane.normal * into;
                            }
                        }
                    }
                    r.length() <= skin
                };
                let done = (remaining - delta).length() <= tolerance
                    || delta.length() <= tolerance
                    || budget <= tolerance
                    || still_held();
                cur = 1 - cur;
                if done {
                    break;
                }
            }
            Some(hit) => {
                blocked.add(hit.normal);
                pos += delta * hit.fraction;
                budget -= delta.length() * hit.fraction;
                here.collect_into(level, mover, at(pos), reach);
            }
        }
    }
    let planes = &mut bufs[cur];

    // 5. Snap and report.
    let mut ground = planes.ground(up, cos_max, reach, tolerance);
    if ground.is_none() && snap > 0.0 && ground0.is_some() && translation.dot(up) <= 0.0 {
        if let Some(hit) = cast_mover(level, mover, at(pos), up * -snap, skin) {
            if hit.normal.dot(up) >= cos_max && hit.fraction > 0.0 {
                pos += up * (-snap * hit.fraction);
                planes.collect_into(level, mover, at(pos), reach);
                ground = planes.ground(up, cos_max, reach, tolerance);
            }
        }
    }
    // The velocity: walkable ground (and anything walkable that blocked) takes only the
    // downward part; every other blocking surface its part into it.
    let mut v = result.velocity;
    let down_blocked = ground.is_some()
        || blocked.normals[..blocked.count]
            .iter()
            .any(|n| n.dot(up) >= cos_max);
    if down_blocked && v.dot(up) < 0.0 {
        v -= up * v.dot(up);
    }
    for &n in &blocked.normals[..blocked.count] {
        let c = n.dot(up);
        if c >= cos_max {
            continue;
        }
        if c > 0.0 {
            // Steep: first the lateral part into it (as a wall), so clipping against the
            // slope never turns lateral speed into climbing speed.
            if let Some(wall) = (n - up * c).try_normalize() {
                let into = v.dot(wall);
                if into < 0.0 {
                    v -= wall * into;
                }
            }
        }
        let into = v.dot(n);
        if into < 0.0 {
            v -= n * into;
        }
    }
    let n = planes.count;
    let touching = &mut planes.planes[..n];
    touching.sort_unstable_by(|a, b| a.separation().total_cmp(&b.separation()));
    // The contacts: what the mover touches (within the skin), and its ground in any case.
    let contacts = touching
        .iter()
        .filter(|p| p.separation() <= skin + tolerance || ground.is_some_and(|g| g == **p));
    for (slot, p) in result.contacts.iter_mut().zip(contacts) {
        *slot = *p;
        result.contact_count += 1;
    }
    result.position = pos;
    result.velocity = v;
    result.on_ground = ground.is_some();
    result.supported = result.on_ground || holds_against_gravity(up, result.contacts());
    result.ground = ground.unwrap_or_default();
    result.iterations = iterations;
    (result, walking)
}

/// Whether the planes at the start of a move (`planes`) hold a walker: walkable ground within
/// `reach`, or a surface within it that faces up and against the `lateral` walk.
fn starts_walking(planes: &[MoverPlane], up: Vec2, cos_max: f32, reach: f32, lateral: Vec2) -> bool {
    planes.iter().any(|p| {
        let n = p.plane.normal;
        p.separation() <= reach && (p.is_walkable(up, cos_max) || (n.dot(up) > 0.0 && n.dot(lateral) < 0.0))
    })
}
