//! `move_and_slide`: one call that moves a kinematic mover of any convex shape through a level
//! (the algorithm is described in the [`mover`](crate::mover) module docs).

use super::options::{
    MoveOptions, MoveResult, MAX_MOVER_CONTACTS, MAX_MOVE_ITERATIONS, MAX_MOVE_TRANSLATION,
};
use super::plane_sets::{Blocked, Gathered, SolverSet, SOLVER_CAPACITY};
use super::query::{
    cast_mover, collide_mover, mover_plane, obstacle_hit, MoverHit, MoverLevel, MoverPlane, OneWayLevel,
};
use super::CollisionPlane;
use crate::cast::{shape_cast, CastState};
use crate::distance::ShapeProxy;
use crate::fmath;
use crate::geometry::{Circle, Shape};
use crate::math::{Transform, Vec2};

/// Rounds of the end check per iteration.
const END_CHECK_ROUNDS: usize = 3;

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
